// Issue 21's acceptance on a real node: a scripted pool miner on the stratum port of a usernet
// node (Cuckatoo only, its coinbases paid to a real wallet listener) logs in, takes a job for
// each algorithm name, and submits what a miner submits — a low share, a stale one, a bad proof,
// a share and a block — solved by our own solver on the job's pre-pow. The block becomes the tip
// with the wallet's coinbase, the next job is pushed at once, `status` counts every outcome, and
// bad lines get Epic's errors while the connection goes on.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { MineAlgo, Solution } from '../../actors/miner/messages.js';
import { solveSlice } from '../../actors/miner/solve.js';
import { fromHex } from '../../core/bytes.js';
import { CHAIN_PARAMS } from '../../core/chain_type.js';
import { powText } from '../../core/stratum/params.js';
import { STRATUM_ERRORS } from '../../core/stratum/rpc.js';
import { progpowCacheFor } from '../../jobs/progpow_cache.js';
import {
  type NodeProcess,
  removeHome,
  startNodeProcess,
  tempHome,
} from '../support/node_process.js';
import { StratumClient } from '../support/stratum_client.js';
import { initWallet, ok, shareProgpowCache, tableRows, waitUntil } from '../support/wallet_e2e.js';
import {
  freePort,
  startWalletListener,
  type TestWallet,
  testWallet,
  type WalletListener,
} from '../support/wallet_process.js';

const USER = CHAIN_PARAMS.usernet;
/** Usernet's ProgPoW floor from this height on: 200,000, beyond a CPU, so ProgPoW jobs give shares. */
const PROGPOW_FLOOR_HEIGHT = 50n;
const SHARE_MIN = 2n;

type Algo = 'cuckoo' | 'progpow';
interface PerAlgo {
  readonly cuckoo: bigint;
  readonly randomx: bigint;
  readonly progpow: bigint;
}
interface Job {
  readonly algorithm: Algo;
  readonly block: PerAlgo;
  readonly share: PerAlgo;
  readonly height: bigint;
  readonly jobId: bigint;
  readonly prePow: string;
}

const LIST = '\\[\\["cuckoo",(\\d+)\\],\\["randomx",(\\d+)\\],\\["progpow",(\\d+)\\]\\]';
/** Epic's job params, key by key in its order; anything else fails the match. */
const JOB_SHAPE = new RegExp(
  `^\\{"algorithm":"(cuckoo|progpow)","block_difficulty":${LIST},"difficulty":${LIST},` +
    '"epochs":\\[\\[0,1060,\\[(?:\\d+,){31}\\d+\\]\\]\\],"height":(\\d+),"job_id":(\\d+),' +
    '"pre_pow":"([0-9a-f]{548})"\\}$',
);

function parseJob(params: string): Job {
  const m = JOB_SHAPE.exec(params);
  assert.ok(m !== null, params);
  const n = (i: number) => BigInt(m[i] as string);
  return {
    algorithm: m[1] as Algo,
    block: { cuckoo: n(2), randomx: n(3), progpow: n(4) },
    share: { cuckoo: n(5), randomx: n(6), progpow: n(7) },
    height: n(8),
    jobId: n(9),
    prePow: m[10] as string,
  };
}

/** The params of a pushed job line. */
const pushedParams = (line: string): string => {
  const prefix = '{"id":"Stratum","jsonrpc":"2.0","method":"job","params":';
  assert.ok(line.startsWith(prefix) && line.endsWith('}'), line);
  return line.slice(prefix.length, -1);
};
const jobPushAt = (height: bigint) => (line: string) =>
  line.includes('"method":"job"') && line.includes(`"height":${height},`);

/** Solutions of the job's pre-pow with `algo`, from nonce 0 on, until `enough` says so. */
function solutions(job: Job, algo: MineAlgo, enough: (found: Solution[]) => boolean): Solution[] {
  const work = new Uint8Array(282);
  work.set(fromHex(job.prePow) as Uint8Array);
  const caches = progpowCacheFor(process.env.MWNODE_PROGPOW_CACHE_DIR ?? null);
  const found: Solution[] = [];
  const until = Date.now() + 120_000;
  let nonce = 0n;
  while (!enough(found)) {
    assert.ok(Date.now() < until, `found: ${found.map((s) => s.achieved).join(',')}`);
    const r = solveSlice(
      {
        algo,
        prePow: work,
        height: job.height,
        seed: new Uint8Array(32),
        target: 1n,
        startNonce: nonce,
        budgetMs: 2_000,
      },
      { params: USER, randomx: null, progpowCache: (e) => caches.get(e) },
    );
    if (r.solution !== null) found.push(r.solution);
    nonce = r.nextNonce;
  }
  return found;
}

const submitParams = (job: Job, s: Solution, jobId = job.jobId) =>
  `{"edge_bits":0,"height":${job.height},"job_id":${jobId},"nonce":${s.nonce},"pow":${powText(s.proof)}}`;

const reply = (id: number, method: string, rest: string) =>
  `{"id":${id},"jsonrpc":"2.0","method":"${method}",${rest}}`;
const okReply = (id: number, method: string, result: string) =>
  reply(id, method, `"result":${result},"error":null`);
const errReply = (id: number, method: string, e: { code: number; message: string }) =>
  reply(id, method, `"result":null,"error":{"code":${e.code},"message":"${e.message}"}`);
/** A line that is not a request: no id or method to echo. */
const BAD_LINE = `{"id":null,"jsonrpc":"2.0","method":null,"result":null,"error":{"code":${STRATUM_ERRORS.invalidRequest.code},"message":"${STRATUM_ERRORS.invalidRequest.message}"}}`;

describe('stratum: a pool miner against a real node and wallet', { timeout: 400_000 }, () => {
  const home = tempHome();
  let node: NodeProcess;
  let wallet: TestWallet;
  let listener: WalletListener | undefined;
  let miner: StratumClient | undefined;

  before(async () => {
    shareProgpowCache();
    const walletPort = await freePort();
    node = await startNodeProcess({
      home,
      chain: 'usernet',
      serverLines: ['pow_policy = { cuckatoo = 50, progpow = 50 }', 'run_test_miner = false'],
      stratumLines: [
        'enable_stratum_server = true',
        'stratum_server_addr = "127.0.0.1:0"',
        `wallet_listener_url = "http://127.0.0.1:${walletPort}"`,
        `progpow_minimum_share_difficulty = ${SHARE_MIN}`,
      ],
    });
    wallet = testWallet(
      home,
      'usernet',
      { url: node.url, secretPath: join(home, '.api_secret') },
      { foreign: walletPort },
    );
    await initWallet(wallet);
    listener = await startWalletListener(wallet, 'listen', ['-l', String(walletPort)]);
  });

  after(async () => {
    miner?.socket.destroy();
    await listener?.stop();
    await node?.stop();
    removeHome(home);
  });

  const stratumPort = (): number => {
    const m = /"event":"stratum_listening","addr":"127\.0\.0\.1:(\d+)"/.exec(node.stderr());
    return m === null ? 0 : Number(m[1]);
  };

  it('logs in, mines blocks with the wallet’s coinbases, then low, stale, bad and good shares', async () => {
    await waitUntil(
      () => stratumPort() > 0,
      20_000,
      () => node.stderr().slice(-2000),
    );
    const c = await StratumClient.open(stratumPort());
    miner = c;
    let id = 0;
    assert.equal(
      await c.ask(++id, 'login', '{"login":"rig1","pass":"x","agent":"test-miner/1"}'),
      okReply(id, 'login', '"ok"'),
    );
    // The first job waits for the wallet's coinbase: it is pushed, then the same on request,
    // whichever algorithm is named (Epic ignores it).
    const first = pushedParams(await c.takeWhere(jobPushAt(1n), 30_000));
    let job = parseJob(first);
    assert.equal(job.jobId, 0n);
    for (const algorithm of ['cuckoo', 'randomx', 'progpow'])
      assert.equal(
        await c.ask(++id, 'getjobtemplate', `{"algorithm":"${algorithm}"}`),
        okReply(id, 'getjobtemplate', first),
      );

    // Bad lines get Epic's errors, and the connection goes on.
    assert.equal(
      await c.ask(++id, 'mine_faster'),
      errReply(id, 'mine_faster', STRATUM_ERRORS.methodNotFound),
    );
    c.send('{"id":99,"jsonrpc":"2.0",\n');
    c.send(`${'x'.repeat(20_000)}\n`);
    assert.deepEqual(await c.take(2), [BAD_LINE, BAD_LINE]);
    assert.equal(await c.ask(++id, 'keepalive'), okReply(id, 'keepalive', '"ok"'));

    // Blocks, each solved on the pushed job, until ProgPoW's floor makes a job a share-only one.
    let blocks = 0n;
    let lastBlock = '';
    while (!(job.algorithm === 'progpow' && job.height > PROGPOW_FLOOR_HEIGHT)) {
      const algo = job.algorithm === 'cuckoo' ? 'cuckatoo' : 'progpow';
      const [s] = solutions(job, algo, (f) =>
        f.some((x) => x.achieved >= job.block[job.algorithm]),
      );
      const answer = await c.ask(++id, 'submit', submitParams(job, s as Solution));
      const m = /"result":"blockfound - ([0-9a-f]{64})","error":null\}$/.exec(answer);
      assert.ok(
        answer.startsWith(`{"id":${id},"jsonrpc":"2.0","method":"submit",`) && m,
        `${answer}\n${node.stderr().slice(-3000)}`,
      );
      lastBlock = m[1] as string;
      blocks++;
      job = parseJob(pushedParams(await c.takeWhere(jobPushAt(job.height + 1n), 30_000)));
      assert.equal(job.jobId, 0n);
    }
    assert.equal(job.share.progpow, SHARE_MIN);
    assert.ok(job.block.progpow >= 200_000n, String(job.block.progpow));

    const progpow = solutions(job, 'progpow', (f) => {
      const low = f.some((x) => x.achieved < SHARE_MIN);
      return low && f.some((x) => x.achieved >= SHARE_MIN);
    });
    const low = progpow.find((x) => x.achieved < SHARE_MIN) as Solution;
    const share = progpow.find((x) => x.achieved >= SHARE_MIN) as Solution;
    const [graph] = solutions(job, 'cuckatoo', (f) => f.length > 0);
    const forged = { ...(graph as Solution), nonce: (graph as Solution).nonce + 1n };
    const outcomes: [Solution, bigint, string][] = [
      [low, job.jobId, errReply(id + 1, 'submit', STRATUM_ERRORS.lowDifficulty)],
      [share, job.jobId + 50n, errReply(id + 2, 'submit', STRATUM_ERRORS.tooLate)],
      [forged, job.jobId, errReply(id + 3, 'submit', STRATUM_ERRORS.cannotValidate)],
      [share, job.jobId, okReply(id + 4, 'submit', '"ok"')],
    ];
    for (const [solution, jobId, expected] of outcomes)
      assert.equal(await c.ask(++id, 'submit', submitParams(job, solution, jobId)), expected);
    assert.equal(
      await c.ask(++id, 'status'),
      okReply(
        id,
        'status',
        `{"accepted":${blocks + 1n},"difficulty":1,"height":${job.height},"id":"0","rejected":2,"stale":1}`,
      ),
    );

    // The last block found is the tip, and the wallet holds a coinbase for every block.
    const tip = await fetch(`${node.url}/v2/foreign`, {
      method: 'POST',
      body: '{"id":1,"jsonrpc":"2.0","method":"get_tip","params":[]}',
    });
    const body = (await tip.json()) as {
      result: { Ok: { last_block_pushed: string; height: number } };
    };
    assert.deepEqual(body.result.Ok.last_block_pushed, lastBlock);
    assert.equal(BigInt(body.result.Ok.height), blocks);
    await ok(wallet, ['info']);
    // (The job being mined has its coinbase in the wallet too, unconfirmed.)
    const heights = tableRows(await ok(wallet, ['outputs']))
      .filter((o) => o['Coinbase?'] === 'true' && o.Status === 'Unspent')
      .map((o) => BigInt(o['Block Height'] ?? '0'))
      .sort((x, y) => (x < y ? -1 : 1));
    assert.deepEqual(
      heights,
      Array.from({ length: Number(blocks) }, (_, i) => BigInt(i + 1)),
    );
  });
});
