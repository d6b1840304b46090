// JSON-RPC calls counted per surface, method and result (gateway/rpc_meter.ts): the meter's
// exposition exact to the call, `unknown` for names outside the table however many, what the
// full path reports for each kind of call, and the fast path and the reply cache counting their
// answers from the slot kept with their template or reply, without parsing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FastReplies } from '../../../gateway/fast_rpc.js';
import {
  handleJsonRpc,
  type MethodTable,
  methodTable,
  RpcFailure,
} from '../../../gateway/jsonrpc.js';
import { ReplyCache, type RpcUsage } from '../../../gateway/reply_cache.js';
import { LATENCY_BUCKETS, latencyBucket } from '../../../gateway/request_meter.js';
import {
  CallLog,
  type CallTally,
  RpcMeter,
  type RpcSlot,
  UNKNOWN_METHOD,
} from '../../../gateway/rpc_meter.js';
import { NO_SYNC } from '../../../gateway/services.js';
import { NodeMetrics } from '../../../metrics/node_metrics.js';
import { parsePromText, sampleValue } from '../../support/prom_text.js';
import { fullPathOver } from '../../support/rpc_full_path.js';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

function nodeMetrics(): NodeMetrics {
  return new NodeMetrics({
    head: () => null,
    headerHeight: async () => 0n,
    sync: () => NO_SYNC,
    connected: () => [],
    inFlight: () => 0,
    actors: () => [],
  });
}

/** What a tally was told, as `surface method ok|error` lines in order. */
class Recorded implements CallTally {
  readonly lines: string[] = [];
  count(slot: RpcSlot, ok: boolean): void {
    this.lines.push(`${slot.surface} ${slot.method} ${ok ? 'ok' : 'error'}`);
  }
}

const table: MethodTable = methodTable([
  { name: 'get_tip', params: [], pure: true, run: async () => ({ height: 1 }) },
  {
    name: 'get_missing',
    params: [],
    pure: true,
    run: async () => {
      throw new RpcFailure({ kind: 'NotFound' });
    },
  },
  { name: 'one', params: [{ name: 'x', decode: (v) => v }], run: async () => null },
  {
    name: 'busy',
    params: [],
    run: async () => {
      throw Object.assign(new Error('full'), { code: 'ActorBusy' });
    },
  },
]);

describe('RpcMeter', () => {
  it('exports calls by surface, method and result, and their latency, exactly', async () => {
    const m = nodeMetrics();
    const foreign = m.rpc.surface('foreign', ['get_tip', 'get_block']);
    const owner = m.rpc.surface('owner', ['get_status']);
    const tip = foreign.of('get_tip');
    for (let i = 0; i < 4; i++) tip.add(true, 0.0002, latencyBucket(0.0002));
    tip.add(false, 0.003, latencyBucket(0.003));
    owner.of('get_status').add(true, 7200, latencyBucket(7200)); // beyond every bound: +Inf
    foreign.of(null).add(false, 0.00001, latencyBucket(0.00001));
    const f = parsePromText(await m.scrape());
    const calls = f
      .get('mwnode_rpc_calls_total')
      ?.samples.map((s) => `${s.labels.surface} ${s.labels.method} ${s.labels.result} ${s.value}`);
    // get_block was never called: no series.
    assert.deepEqual(calls, [
      'foreign get_tip ok 4',
      'foreign get_tip error 1',
      'foreign unknown error 1',
      'owner get_status ok 1',
    ]);
    const d = 'mwnode_rpc_call_duration_seconds';
    const tipLabels = { surface: 'foreign', method: 'get_tip' };
    assert.equal(sampleValue(f, `${d}_count`, tipLabels), 5);
    assert.ok(Math.abs((sampleValue(f, `${d}_sum`, tipLabels) ?? 0) - 0.0038) < 1e-12);
    assert.equal(sampleValue(f, `${d}_bucket`, { ...tipLabels, le: '0.0001' }), 0);
    assert.equal(sampleValue(f, `${d}_bucket`, { ...tipLabels, le: '0.00025' }), 4);
    assert.equal(sampleValue(f, `${d}_bucket`, { ...tipLabels, le: '0.0025' }), 4);
    assert.equal(sampleValue(f, `${d}_bucket`, { ...tipLabels, le: '0.005' }), 5);
    const status = { surface: 'owner', method: 'get_status' };
    assert.equal(sampleValue(f, `${d}_bucket`, { ...status, le: '5' }), 0);
    assert.equal(sampleValue(f, `${d}_bucket`, { ...status, le: '+Inf' }), 1);
    // The request histogram's buckets, no other.
    const les = f
      .get(d)
      ?.samples.filter((s) => s.name === `${d}_bucket` && s.labels.method === 'get_tip')
      .map((s) => s.labels.le);
    assert.deepEqual(les, [...LATENCY_BUCKETS.map(String), '+Inf']);
  });

  it('counts any name outside the table as unknown: the series set stays bounded', () => {
    const meter = new RpcMeter();
    const s = meter.surface('foreign', ['get_tip']);
    for (let i = 0; i < 1000; i++) s.of(`random_${i}_${Math.random()}`).add(false, 0.001, 4);
    s.of('__proto__').add(false, 0.001, 4);
    s.of('get_tip').add(true, 0.001, 4);
    assert.equal(s.of('nope'), s.unknown);
    assert.equal(s.unknown.method, UNKNOWN_METHOD);
    assert.deepEqual(
      meter.callValues().map((v) => `${v.labels.method} ${v.labels.result} ${v.value}`),
      ['get_tip ok 1', 'unknown error 1001'],
    );
    // The same surface asked for again: the same slots.
    assert.equal(meter.surface('foreign', ['get_tip']).of('get_tip'), s.of('get_tip'));
  });
});

/** The calls the full path reports for `body`, as `method ok|error` lines. */
async function reported(body: string | Uint8Array): Promise<{ lines: string[]; status: number }> {
  const lines: string[] = [];
  const usage: RpcUsage = {
    impure: false,
    calls: { call: (method, ok) => void lines.push(`${method} ${ok ? 'ok' : 'error'}`) },
  };
  const r = await handleJsonRpc(typeof body === 'string' ? bytes(body) : body, table, usage);
  return { lines, status: r.status };
}

describe('the full path reports each call', () => {
  it('ok, result.Err, unknown method, bad params, invalid, unparsable, busy', async () => {
    assert.deepEqual(await reported('{"jsonrpc":"2.0","method":"get_tip","id":1}'), {
      lines: ['get_tip ok'],
      status: 200,
    });
    assert.deepEqual(await reported('{"method":"get_missing","id":1}'), {
      lines: ['get_missing error'],
      status: 200,
    });
    assert.deepEqual(await reported('{"method":"no_such","id":1}'), {
      lines: ['no_such error'],
      status: 200,
    });
    assert.deepEqual(await reported('{"method":"one","params":[],"id":1}'), {
      lines: ['one error'],
      status: 200,
    });
    assert.deepEqual(await reported('{"method":"one","params":[5]}'), {
      lines: ['one ok'], // a notification runs too
      status: 200,
    });
    assert.deepEqual(await reported('{"id":1}'), { lines: ['null error'], status: 200 });
    assert.deepEqual(await reported('{"method":"get_tip","id":-1}'), {
      lines: ['null error'], // -32700: no call at all
      status: 200,
    });
    assert.deepEqual(await reported('{'), { lines: ['null error'], status: 500 });
    assert.deepEqual(await reported(Uint8Array.of(0xff)), { lines: ['null error'], status: 500 });
    assert.deepEqual(await reported('{"method":"busy","id":1}'), {
      lines: ['busy error'],
      status: 503,
    });
  });

  it('a batch reports every call in order; a busy call ends it', async () => {
    assert.deepEqual(
      await reported(
        '[{"method":"get_tip","id":1},{"method":"x","id":2},{"id":3},{"method":"get_tip","id":4}]',
      ),
      { lines: ['get_tip ok', 'x error', 'null error', 'get_tip ok'], status: 200 },
    );
    assert.deepEqual(
      await reported('[{"method":"get_tip","id":1},{"method":"busy","id":2},{"method":"x"}]'),
      { lines: ['get_tip ok', 'busy error'], status: 503 },
    );
  });
});

describe('the fast path counts from the slot kept with its template', () => {
  const full = fullPathOver(table);
  const settle = (): Promise<void> => new Promise((r) => setImmediate(r));

  it('counts each answer it gives (ok or result.Err), nothing it declines', async () => {
    const meter = new RpcMeter();
    const foreign = meter.surface('foreign', table.keys());
    const fast = new FastReplies((_, method) => foreign.of(method));
    const tally = new Recorded();
    const state = {};
    const call = (m: string, id: number) =>
      fast.reply('foreign', table, bytes(`{"method":"${m}","id":${id}}`), state, full, tally);
    assert.equal(call('get_tip', 1), undefined); // its template is being made: the full path's
    assert.equal(call('get_missing', 1), undefined);
    await settle();
    assert.notEqual(call('get_tip', 2), undefined);
    assert.notEqual(call('get_tip', 3), undefined);
    assert.notEqual(call('get_missing', 4), undefined);
    assert.equal(call('one', 5), undefined); // not a fast-path method
    assert.equal(call('nope', 6), undefined);
    assert.deepEqual(tally.lines, [
      'foreign get_tip ok',
      'foreign get_tip ok',
      'foreign get_missing error',
    ]);
    // The templates' own runs (marker ids) are not calls of anyone's.
    assert.deepEqual(meter.callValues(), []);
    // Without a tally (metrics off) nothing is counted, the answer is the same.
    const quiet = fast.reply('foreign', table, bytes('{"method":"get_tip","id":7}'), state, full);
    assert.notEqual(quiet, undefined);
    assert.equal(tally.lines.length, 3);
  });
});

describe('the reply cache counts a reused reply with the calls it answered', () => {
  it('known and serve replay the calls logged when the reply was made', async () => {
    const meter = new RpcMeter();
    const foreign = meter.surface('foreign', table.keys());
    const cache = new ReplyCache();
    const state = {};
    const body = bytes('[{"method":"get_tip","id":1},{"method":"get_missing","id":2}]');
    let computed = 0;
    const compute = (usage: RpcUsage) => {
      computed++;
      return handleJsonRpc(body, table, usage);
    };
    const first = new CallLog(foreign);
    const made = await cache.serve('foreign', body, state, compute, first);
    assert.equal(made.status, 200);
    const again = new CallLog(foreign);
    assert.equal(await cache.serve('foreign', body, state, compute, again), made);
    const tally = new Recorded();
    assert.equal(cache.known('foreign', body, state, tally), made);
    assert.equal(computed, 1);
    const pair = ['foreign get_tip ok', 'foreign get_missing error'];
    assert.deepEqual(tally.lines, pair);
    const replayed = new Recorded();
    first.replay(replayed);
    again.replay(replayed);
    assert.deepEqual(replayed.lines, [...pair, ...pair]);
    // No tally: the reply, nothing counted.
    assert.equal(cache.known('foreign', body, state), made);
    assert.equal(tally.lines.length, 2);
  });

  it('an impure reply is not kept: each request is computed and logged anew', async () => {
    const foreign = new RpcMeter().surface('foreign', ['one']);
    const cache = new ReplyCache();
    const body = bytes('{"method":"one","params":[1],"id":1}');
    const compute = (usage: RpcUsage) => handleJsonRpc(body, table, usage);
    const state = {};
    const log = new CallLog(foreign);
    await cache.serve('foreign', body, state, compute, log);
    const tally = new Recorded();
    assert.equal(cache.known('foreign', body, state, tally), undefined);
    assert.equal(cache.size, 0);
    assert.deepEqual(tally.lines, []);
    log.replay(tally);
    assert.deepEqual(tally.lines, ['foreign one ok']);
  });
});
