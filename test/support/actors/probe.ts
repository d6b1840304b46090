// A test actor with one message per runtime behaviour: state (add, also published as the event
// `total`), codec (echo), handler errors (fail), deaths in and outside a handler (crash,
// throwLater), slow work (sleep, spin).
import { writeFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
import { type ActorFactory, actorFromHandlers } from '../../../runtime/protocol.js';
import { SharedRing } from '../../../runtime/shared_ring.js';
import type { ProbeEvents, ProbeInit, ProbeProtocol } from './probe_messages.js';

class CodedError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

const createProbe: ActorFactory<ProbeProtocol, ProbeInit, ProbeEvents> = async (init, ctx) => {
  if (init.failInit !== undefined) throw new CodedError(init.failInit, 'refusing to start');
  let total = init.start;
  ctx.publish('total', total);
  let handled = 0;
  const ring = ctx.shared.ring === undefined ? undefined : new SharedRing(ctx.shared.ring);
  const count = <T>(v: T): T => {
    handled++;
    return v;
  };
  return actorFromHandlers<ProbeProtocol>(
    {
      add: ({ n }) => {
        total += n;
        ctx.publish('total', total);
        return count(total);
      },
      echo: (body) => count(body),
      fail: ({ code, message }) => {
        count(null);
        throw code === undefined ? new Error(message) : new CodedError(code, message);
      },
      failPlain: (s) => {
        throw s;
      },
      crash: ({ code }) => process.exit(code),
      throwLater: ({ ms }) => {
        setTimeout(() => {
          throw new Error('thrown outside any handler');
        }, ms);
        return count(null);
      },
      sleep: ({ ms }) => new Promise((resolve) => setTimeout(() => resolve(count(ms)), ms)),
      spin: ({ ms }) => {
        const until = Date.now() + ms;
        while (Date.now() < until);
        return count(ms);
      },
      whoami: () => ({ threadId, handled, total }),
      unencodable: () => () => {},
      lend: ({ text }) => {
        const lent = ring?.lend(text.length);
        if (lent === undefined) return null;
        lent.bytes.set(Buffer.from(text, 'latin1'));
        return lent.slice;
      },
    },
    async () => {
      const delay = init.closeDelayMs ?? 0;
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      if (init.closeFile !== undefined)
        writeFileSync(init.closeFile, JSON.stringify({ handled, total: total.toString() }));
    },
  );
};

export default createProbe;
