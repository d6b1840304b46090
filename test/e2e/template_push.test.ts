// New work pushed beyond Epic's polling, against a real node with a foreign credential: the
// WebSocket feed on `/v2/foreign/ws` (credential at the upgrade, the current template first,
// then every new one as a `block_template` notification) and get_block_template's long-poll
// form (answered when the template changes: a new block, a pool change after its refresh
// period, or the timeout), with Epic's form and errors unchanged.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { parseJson } from '../../core/json/parse.js';
import { stringifyJson } from '../../core/json/stringify.js';
import type { JsonValue } from '../../core/json/value.js';
import { blockToJson } from '../../core/serde/block.js';
import { kernelToJson, outputToJson, transactionToJson } from '../../core/serde/transaction.js';
import { mineWith } from '../support/miner.js';
import {
  basic,
  type NodeProcess,
  removeHome,
  startNodeProcess,
  tempHome,
} from '../support/node_process.js';
import { spendCoinbase } from '../support/spend.js';

const SECRET = 'template-push-foreign-secret';
const AUTH = basic(SECRET);

type Json = { readonly [k: string]: JsonValue };

let node: NodeProcess;
let home: string;

/** A foreign call as raw text, parsed with u64s kept exact. */
async function call(method: string, params: JsonValue, auth = AUTH) {
  const r = await fetch(`${node.url}/v2/foreign`, {
    method: 'POST',
    headers: { authorization: auth },
    body: stringifyJson({ jsonrpc: '2.0', method, params, id: 1 }),
  });
  return { status: r.status, body: parseJson(await r.text()) as Json };
}

async function ok(method: string, params: JsonValue): Promise<Json> {
  const r = await call(method, params);
  assert.equal(r.status, 200);
  const result = r.body.result as Json;
  assert.ok('Ok' in result, stringifyJson(r.body));
  return result.Ok as Json;
}

/** The long-poll form's answer for `longpollid`. */
function longPoll(longpollid: string | null, timeout_secs?: number): Promise<Json> {
  return ok('get_block_template', [
    timeout_secs === undefined ? { longpollid } : { longpollid, timeout_secs },
  ]);
}

/** Epic's template plus our id, as both the long poll and the feed carry it. */
function withId(epic: Json, id: string): Json {
  return { ...epic, longpollid: id };
}

/** The notification text a subscriber must receive for `template`. */
function notification(template: Json): string {
  return stringifyJson(
    { jsonrpc: '2.0', method: 'block_template', params: template },
    { sortKeys: true },
  );
}

/** A subscriber collecting every message as text. */
class Subscriber {
  readonly messages: string[] = [];
  readonly ws: WebSocket;
  #wake: (() => void) | null = null;
  constructor(auth: string | null) {
    this.ws = new WebSocket(
      `${node.url.replace('http', 'ws')}/v2/foreign/ws`,
      auth === null ? {} : { headers: { authorization: auth } },
    );
    this.ws.on('message', (data) => {
      this.messages.push(String(data));
      this.#wake?.();
    });
  }
  /** The `n`th message (from 1), waiting for it. */
  async nth(n: number, ms = 15_000): Promise<string> {
    const end = Date.now() + ms;
    while (this.messages.length < n) {
      if (Date.now() > end) assert.fail(`no message ${n} in time (${this.messages.length})`);
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
        setTimeout(resolve, 100);
      });
    }
    return this.messages[n - 1] as string;
  }
  close(): void {
    this.ws.close();
  }
}

/** The HTTP answer to an upgrade the node refuses. */
function refusedUpgrade(auth: string | null): Promise<{ status: number; headers: Json }> {
  return new Promise((resolve, reject) => {
    const sub = new Subscriber(auth);
    sub.ws.on('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode ?? 0, headers: { ...res.headers } as Json });
      res.destroy();
    });
    sub.ws.on('open', () => reject(new Error('the upgrade was accepted')));
    sub.ws.on('error', () => {});
  });
}

/** The three-step flow with the foreign credential. */
async function mineOne(): Promise<void> {
  const block = await mineWith({
    template: () => ok('get_block_template', []),
    finalize: (cb) =>
      ok('finalize_block_template', [
        { output: outputToJson(cb.output), kernel: kernelToJson(cb.kernel) },
      ]),
  });
  assert.equal(await ok('submit_block', [blockToJson(block)]), null);
}

describe('templates pushed: WebSocket feed and long poll', { timeout: 120_000 }, () => {
  before(async () => {
    home = tempHome();
    const file = join(home, '.foreign_api_secret');
    writeFileSync(file, SECRET, { mode: 0o600 });
    node = await startNodeProcess({
      home,
      serverLines: ['pow_policy = { cuckatoo = 100 }', `foreign_api_secret_path = "${file}"`],
    });
    // Block 1's coinbase is spendable from height 4 on (maturity 3).
    for (let i = 0; i < 4; i++) await mineOne();
  });
  after(async () => {
    await node?.stop();
    if (home !== undefined) removeHome(home);
  });

  it('refuses the upgrade without the foreign credential, as a POST would be', async () => {
    for (const auth of [null, basic('wrong')]) {
      const r = await refusedUpgrade(auth);
      assert.equal(r.status, 401);
      assert.equal(r.headers['www-authenticate'], 'Basic realm=NodeForeignAPI');
    }
  });

  it("keeps Epic's form exactly, and Epic's errors for parameters the long poll cannot take", async () => {
    const epic = await call('get_block_template', []);
    assert.equal(epic.status, 200);
    const template = (epic.body.result as Json).Ok as Json;
    assert.equal(template.height, 5);
    assert.equal('longpollid' in template, false);
    const invalid = (params: JsonValue) => call('get_block_template', params);
    const expectError = async (params: JsonValue, message: string) => {
      const r = await invalid(params);
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, { error: { code: -32602, message }, id: 1, jsonrpc: '2.0' });
    };
    // What the long-poll form cannot take gets the error Epic gives any parameter.
    const epicError = 'WrongNumberOfArgs. Expected 1. Actual 0';
    await expectError([{ longpollid: 5 }], epicError);
    await expectError([{ longpollid: null, timeout_secs: 0 }], epicError);
    await expectError([{ longpollid: null, timeout_secs: 301 }], epicError);
    await expectError([{ longpollid: null, other: 1 }], epicError);
    await expectError([null], epicError);
    await expectError([1], epicError);
    await expectError({ longpoll: 1 }, 'ExtraNamedParameter longpoll');
    await expectError([{}, 1], 'WrongNumberOfArgs. Expected 2. Actual 0');
  });

  it('answers the long poll at once for an unknown id, then when a block changes the template, and feeds every subscriber the same', async () => {
    const sub = new Subscriber(AUTH);
    const epic = await ok('get_block_template', []);
    const first = await longPoll(null);
    const id = first.longpollid as string;
    assert.match(id, /^[0-9a-f]{8}-[1-9][0-9]*$/);
    assert.deepEqual(first, withId(epic, id));
    assert.deepEqual(await longPoll('not-this-one'), first);
    assert.deepEqual(await ok('get_block_template', { longpoll: { longpollid: null } }), first);
    // The subscriber's first message is the current template.
    assert.equal(await sub.nth(1), notification(first));

    const waiting = longPoll(id, 60);
    await new Promise((r) => setTimeout(r, 300));
    await mineOne();
    const next = await waiting;
    assert.equal(next.height, 6);
    assert.notEqual(next.longpollid, id);
    const { longpollid, ...rest } = next;
    assert.deepEqual(rest, await ok('get_block_template', []));
    assert.equal(await sub.nth(2), notification(next));
    // A second subscriber starts at the current template.
    const late = new Subscriber(AUTH);
    assert.equal(await late.nth(1), notification(next));
    assert.equal(typeof longpollid, 'string');
    sub.close();
    late.close();
  });

  it('answers the long poll with the same template at its timeout', async () => {
    const now = await longPoll(null);
    const started = Date.now();
    const again = await longPoll(now.longpollid as string, 1);
    assert.ok(Date.now() - started >= 950, 'held for its timeout');
    assert.deepEqual(again, now);
  });

  it('pushes the template with a new transaction once the pool changes', async () => {
    const sub = new Subscriber(AUTH);
    const now = parseJson((await sub.nth(1)).toString()) as Json;
    const params = now.params as Json;
    assert.deepEqual(params.transactions, []);
    const waiting = longPoll(params.longpollid as string, 30);
    const pushed = await call('push_transaction', [transactionToJson(spendCoinbase(1)), true]);
    assert.deepEqual(pushed.body.result, { Ok: null });
    const next = await waiting;
    assert.equal((next.transactions as JsonValue[]).length, 1);
    assert.equal(next.height, params.height);
    assert.equal(await sub.nth(2), notification(next));
    sub.close();
  });

  it("builds the next head's template without the transactions its block mined", async () => {
    const sub = new Subscriber(AUTH);
    const before = parseJson((await sub.nth(1)).toString()) as Json;
    const height = (before.params as Json).height as number;
    assert.equal(((before.params as Json).transactions as JsonValue[]).length, 1);
    await mineOne(); // mines the pool's transaction
    // Asked at once: the pool is brought up to the new head before it lists anything.
    let next = await ok('get_block_template', []);
    while (next.height === height) next = await ok('get_block_template', []);
    assert.equal(next.height, height + 1);
    assert.deepEqual(next.transactions, []);
    const pushed = parseJson((await sub.nth(2)).toString()) as Json;
    assert.equal((pushed.params as Json).height, height + 1);
    assert.deepEqual((pushed.params as Json).transactions, []);
    sub.close();
  });
});
