// The stratum listener and its sessions over real TCP on loopback, with a scripted backend
// (jobs and share verdicts are the jobs and shares modules' part): Epic's exact reply lines,
// counters, bad and over-long lines answered while the connection goes on, jobs pushed to every
// miner, and the bounds — connections, rate, idle time.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { type StratumLimits, StratumServer } from '../../../actors/stratum/server.js';
import type { SessionBackend, SubmitOutcome } from '../../../actors/stratum/session.js';
import { jobText, type StratumJob } from '../../../core/stratum/job.js';
import type { SubmitParams } from '../../../core/stratum/params.js';
import { STRATUM_ERRORS } from '../../../core/stratum/rpc.js';
import { StratumClient as Client } from '../../support/stratum_client.js';

const JOB: StratumJob = {
  height: 12n,
  jobId: 0n,
  algorithm: 'cuckoo',
  shareDifficulty: { cuckatoo: 1n, randomx: 1n, progpow: 1n },
  blockDifficulty: { cuckatoo: 2n, randomx: 3n, progpow: 4n },
  prePow: new Uint8Array(274).fill(0xab),
  epochs: [{ start: 0n, end: 1060n, seed: new Uint8Array(32) }],
};

/** Verdicts by nonce: what the shares module would decide. */
const VERDICTS: Readonly<Record<string, SubmitOutcome>> = {
  '1': { kind: 'share' },
  '2': { kind: 'block', hash: 'ab'.repeat(32) },
  '3': { kind: 'stale' },
  '4': { kind: 'rejected', error: STRATUM_ERRORS.lowDifficulty },
  '5': { kind: 'rejected', error: STRATUM_ERRORS.cannotValidate },
};

function backend(state: { job: StratumJob | null; syncing: boolean }): SessionBackend {
  return {
    job: () => state.job,
    syncing: () => state.syncing,
    submit: async (p: SubmitParams) => VERDICTS[p.nonce.toString()] ?? { kind: 'share' },
  };
}

const reply = (id: string, method: string, rest: string) =>
  `{"id":${id},"jsonrpc":"2.0","method":"${method}",${rest}}`;
const error = (e: { code: number; message: string }) =>
  `"result":null,"error":{"code":${e.code},"message":"${e.message}"}`;
const BAD = reply('null', 'null', error(STRATUM_ERRORS.invalidRequest)).replace(
  '"method":"null"',
  '"method":null',
);

describe('stratum server', () => {
  let server: StratumServer;
  const clients: Client[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) c.socket.destroy();
    await server?.close();
  });

  async function start(
    state = { job: JOB as StratumJob | null, syncing: false },
    limits?: Partial<StratumLimits>,
  ) {
    server = await StratumServer.listen({ host: '127.0.0.1', port: 0, limits }, backend(state));
    return state;
  }
  async function client(): Promise<Client> {
    const c = await Client.open(server.port);
    clients.push(c);
    return c;
  }

  it('answers each method with Epic’s lines and counts shares per connection', async () => {
    await start();
    const c = await client();
    const submit = (id: number, nonce: number) =>
      `{"id":${id},"jsonrpc":"2.0","method":"submit","params":{"height":12,"job_id":0,"nonce":${nonce},"pow":{"Cuckoo":[19,[1,2]]}}}\n`;
    c.send(
      '{"id":"0","jsonrpc":"2.0","method":"login","params":{"login":"w1","pass":"","agent":"t"}}\n',
    );
    assert.deepEqual(await c.take(1), [reply('"0"', 'login', '"result":"ok","error":null')]);
    c.send(
      '{"id":"1","jsonrpc":"2.0","method":"getjobtemplate","params":{"algorithm":"randomx"}}\n',
    );
    assert.deepEqual(await c.take(1), [
      reply('"1"', 'getjobtemplate', `"result":${jobText(JOB)},"error":null`),
    ]);
    for (const [i, nonce] of [1, 2, 3, 4, 5].entries()) {
      c.send(submit(10 + i, nonce));
      const [line] = await c.take(1);
      const expected = [
        '"result":"ok","error":null',
        `"result":"blockfound - ${'ab'.repeat(32)}","error":null`,
        error(STRATUM_ERRORS.tooLate),
        error(STRATUM_ERRORS.lowDifficulty),
        error(STRATUM_ERRORS.cannotValidate),
      ][i];
      assert.equal(line, reply(String(10 + i), 'submit', expected as string));
    }
    c.send(
      '{"id":7,"jsonrpc":"2.0","method":"status","params":null}\n{"id":8,"jsonrpc":"2.0","method":"keepalive"}\n',
    );
    assert.deepEqual(await c.take(2), [
      reply(
        '7',
        'status',
        '"result":{"accepted":2,"difficulty":1,"height":12,"id":"0","rejected":2,"stale":1},"error":null',
      ),
      reply('8', 'keepalive', '"result":"ok","error":null'),
    ]);
    const second = await client();
    second.send('{"id":1,"jsonrpc":"2.0","method":"status"}\n');
    assert.deepEqual(await second.take(1), [
      reply(
        '1',
        'status',
        '"result":{"accepted":0,"difficulty":1,"height":12,"id":"1","rejected":0,"stale":0},"error":null',
      ),
    ]);
    assert.deepEqual(
      server.sessions().map((s) => [s.id, s.stats.login, s.stats.blocks]),
      [
        [0, 'w1', 1n],
        [1, null, 0n],
      ],
    );
  });

  it('answers what Epic refuses, and the connection goes on', async () => {
    await start(undefined, { maxLine: 256 });
    const c = await client();
    c.send('{"id":9,"jsonrpc":"2.0","method":"mining.subscribe","params":[]}\n');
    c.send('{"id":"a","jsonrpc":"2.0","method":"getjobtemplate","params":{}}\n');
    c.send('{"id":"b","jsonrpc":"2.0","method":"submit","params":{"height":12}}\n');
    c.send('{"id":"c","jsonrpc":"2.0","method":"login","params":{"login":"x"}}\n');
    c.send('not json\n{"id":1,"method":"keepalive"}\n\n');
    c.send(`{"id":2,"jsonrpc":"2.0","method":"keepalive","params":"${'x'.repeat(300)}"}\n`);
    c.send(Buffer.from([0x7b, 0xff, 0x7d, 0x0a]));
    c.send('{"id":3,"jsonrpc":"2.0","method":"keepalive"}\r\n');
    assert.deepEqual(await c.take(10), [
      reply('9', 'mining.subscribe', error(STRATUM_ERRORS.methodNotFound)),
      reply('"a"', 'getjobtemplate', error(STRATUM_ERRORS.invalidRequest)),
      reply('"b"', 'submit', error(STRATUM_ERRORS.invalidRequest)),
      reply('"c"', 'login', error(STRATUM_ERRORS.invalidRequest)),
      BAD, // not JSON
      BAD, // no jsonrpc
      BAD, // an empty line
      BAD, // over 256 bytes
      BAD, // not UTF-8
      reply('3', 'keepalive', '"result":"ok","error":null'),
    ]);
    assert.equal(c.closed, false);
  });

  it('says it is syncing, before the params and before its first job', async () => {
    const state = await start({ job: null, syncing: true });
    const c = await client();
    c.send('{"id":1,"jsonrpc":"2.0","method":"getjobtemplate","params":{}}\n');
    assert.deepEqual(await c.take(1), [
      reply('1', 'getjobtemplate', error(STRATUM_ERRORS.syncing)),
    ]);
    state.syncing = false;
    c.send('{"id":2,"jsonrpc":"2.0","method":"getjobtemplate","params":{"algorithm":"x"}}\n');
    assert.deepEqual(await c.take(1), [
      reply('2', 'getjobtemplate', error(STRATUM_ERRORS.syncing)),
    ]);
    c.send('{"id":3,"jsonrpc":"2.0","method":"status"}\n');
    assert.deepEqual(await c.take(1), [
      reply(
        '3',
        'status',
        '"result":{"accepted":0,"difficulty":1,"height":0,"id":"0","rejected":0,"stale":0},"error":null',
      ),
    ]);
  });

  it('pushes a job to every miner as Epic’s job request', async () => {
    await start();
    const a = await client();
    const b = await client();
    while (server.connections < 2) await new Promise((r) => setTimeout(r, 5));
    server.push({ ...JOB, jobId: 3n });
    const line = `{"id":"Stratum","jsonrpc":"2.0","method":"job","params":${jobText({ ...JOB, jobId: 3n })}}`;
    assert.deepEqual(await a.take(1), [line]);
    assert.deepEqual(await b.take(1), [line]);
  });

  it('closes connections beyond the cap at once, and keeps those within it', async () => {
    await start(undefined, { maxConnections: 2, idleMs: 60_000 });
    const a = await client();
    const b = await client();
    const c = await client();
    assert.equal(await c.closedByServer(1000), true, 'the third is closed at once');
    assert.equal(a.closed || b.closed, false, 'the first two stay');
    b.send('{"id":1,"jsonrpc":"2.0","method":"keepalive"}\n');
    assert.equal((await b.take(1)).length, 1);
  });

  it('closes connections idle too long', async () => {
    await start(undefined, { idleMs: 300 });
    const a = await client();
    const b = await client();
    const t = Date.now();
    b.send('{"id":1,"jsonrpc":"2.0","method":"keepalive"}\n');
    await b.take(1);
    assert.equal(await a.closedByServer(3000), true, 'a sent nothing');
    assert.ok(Date.now() - t >= 200, `closed after ${Date.now() - t} ms`);
    assert.equal(await b.closedByServer(3000), true, 'b too, once idle');
  });

  it('reads a flooding miner at its rate only, answering every line in order', async () => {
    await start(undefined, { rate: { perSecond: 200, burst: 20 } });
    const c = await client();
    const n = 120;
    const t = Date.now();
    c.send(
      Array.from(
        { length: n },
        (_, i) => `{"id":${i},"jsonrpc":"2.0","method":"keepalive"}\n`,
      ).join(''),
    );
    const lines = await c.take(n);
    const ms = Date.now() - t;
    assert.deepEqual(
      lines,
      Array.from({ length: n }, (_, i) =>
        reply(String(i), 'keepalive', '"result":"ok","error":null'),
      ),
    );
    // 20 at once, then 100 at 200 a second: half a second at least.
    assert.ok(ms >= 400, `answered in ${ms} ms`);
    const other = await client();
    other.send('{"id":1,"jsonrpc":"2.0","method":"keepalive"}\n');
    assert.equal((await other.take(1)).length, 1);
  });
});
