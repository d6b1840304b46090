// A test actor that asks other actors (see relay_messages.ts).
import type { Plain } from '../../../runtime/codec.js';
import { ActorError, ActorTimeoutError } from '../../../runtime/errors.js';
import { type ActorFactory, actorFromHandlers } from '../../../runtime/protocol.js';
import type { ProbeProtocol } from './probe_messages.js';
import type { Outcome, RelayInit, RelayProtocol } from './relay_messages.js';

/** Untyped on purpose: the tests name kinds and targets the probe protocol may not have. */
interface AnyExchanges {
  readonly [kind: string]: { req: Plain; res: Plain };
}

function outcomeOf(e: unknown): Outcome {
  if (!(e instanceof Error)) throw e;
  const coded = e as Error & { code?: unknown; actor?: unknown };
  return {
    ok: false,
    name: e.name,
    code: typeof coded.code === 'string' ? coded.code : '',
    actor: typeof coded.actor === 'string' ? coded.actor : '',
    message: e.message,
    actorError: e instanceof ActorError,
    ...(e instanceof ActorTimeoutError ? { deadlineMs: e.deadlineMs } : {}),
  };
}

const createRelay: ActorFactory<RelayProtocol, RelayInit> = async (init, ctx) => {
  const probe = ctx.actor<ProbeProtocol>(init.target);
  const atStart = init.askAtStart === true ? (await probe.ask('whoami', null)).total : null;
  return actorFromHandlers<RelayProtocol>({
    atStart: () => atStart,
    add: ({ n }) => probe.ask('add', { n }),
    call: ({ target, kind, body, count, deadlineMs, fnBody }) => {
      const to = ctx.actor<AnyExchanges>(target ?? init.target);
      const opts = deadlineMs === undefined ? {} : { deadlineMs };
      const sent = fnBody === true ? ((() => {}) as unknown as Plain) : body;
      const calls = Array.from({ length: count ?? 1 }, () =>
        to.ask(kind, sent, opts).then(
          (value): Outcome => ({ ok: true, value }),
          (e: unknown) => outcomeOf(e),
        ),
      );
      return Promise.all(calls);
    },
    echoLoop: async ({ rounds, parallel, body }) => {
      for (let i = 0; i < rounds; i++)
        await Promise.all(Array.from({ length: parallel }, () => probe.ask('echo', body)));
      return rounds * parallel;
    },
  });
};

export default createRelay;
