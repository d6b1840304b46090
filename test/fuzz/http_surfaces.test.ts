// Every HTTP surface of the real node fuzzed with FUZZ_REQUESTS generated hostile requests each
// (default 100,000; test/support/http_fuzz.ts): only proper statuses and JSON-RPC answers come
// back, never the gateway's own "internal error", every request is answered in time, the node
// stays up, and its resident memory does not keep growing. FUZZ_SEED overrides the seed.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Rng } from '../support/fuzz_input.js';
import { type FuzzRequest, fuzzRequest } from '../support/http_fuzz.js';
import { mineBlock, submit } from '../support/miner.js';
import {
  basic,
  type NodeProcess,
  ownerSecret,
  removeHome,
  startNodeProcess,
  tempHome,
} from '../support/node_process.js';
import { rssMiB } from '../support/process_memory.js';
import {
  startWalletListener,
  testWallet,
  type WalletListener,
  walletCommand,
} from '../support/wallet_process.js';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 100_000);
const SEED = Number(process.env.FUZZ_SEED ?? 0x4854_5450) >>> 0;
const CONCURRENCY = 32;
const ANSWER_MS = 10_000;

const FOREIGN = [
  'get_header',
  'get_block',
  'get_blocks',
  'get_version',
  'get_tip',
  'get_kernel',
  'get_outputs',
  'get_unspent_outputs',
  'get_pmmr_indices',
  'get_pool_size',
  'get_stempool_size',
  'get_unconfirmed_transactions',
  'push_transaction',
  'get_block_template',
  'finalize_block_template',
  'submit_block',
  'get_last_n_kernels',
];
const OWNER = [
  'get_status',
  'validate_chain',
  'compact_chain',
  'get_peers',
  'get_connected_peers',
  'ban_peer',
  'unban_peer',
  'get_onion_addresses',
];
const V1 = [
  '/v1/',
  '/v1/blocks/1',
  '/v1/blocks/zz',
  '/v1/headers/2',
  '/v1/chain',
  '/v1/chain/outputs/byids',
  '/v1/chain/outputs/byheight',
  '/v1/chain/kernels/08',
  '/v1/chain/validate',
  '/v1/txhashset/roots',
  '/v1/txhashset/lastoutputs',
  '/v1/txhashset/outputs',
  '/v1/txhashset/merkleproof',
  '/v1/status',
  '/v1/pool',
  '/v1/pool/push_tx',
  '/v1/peers/all',
  '/v1/peers/connected',
  '/v1/peers/1.2.3.4:1/ban',
  '/v1/peers/x',
  '/v1/version',
  '/v1/mining/block_template',
  '/v2/',
  '/',
];

interface Surface {
  readonly name: string;
  readonly paths: readonly string[];
  readonly methods: readonly string[] | null;
  readonly owner: boolean;
  readonly maxBody: number;
}

const SURFACES: readonly Surface[] = [
  {
    name: '/v2/foreign',
    paths: ['/v2/foreign'],
    methods: FOREIGN,
    owner: false,
    maxBody: 16 << 20,
  },
  { name: '/v2/owner', paths: ['/v2/owner'], methods: OWNER, owner: true, maxBody: 16 << 20 },
  { name: '/v2/tor', paths: ['/v2/tor'], methods: FOREIGN, owner: false, maxBody: 16 << 20 },
  { name: '/v1', paths: V1, methods: null, owner: true, maxBody: 64 << 10 },
];

const STATUSES = new Set([200, 400, 401, 404, 405, 413, 500]);

/** Why an answer is not a proper one, or null; `rpc`: a POST to the JSON-RPC path itself. */
function improper(rpc: boolean, status: number, body: string): string | null {
  if (!STATUSES.has(status)) return `status ${status}`;
  if (body === 'internal error') return 'the gateway caught an exception';
  if (!rpc || status === 401 || status === 404 || status === 413) return null;
  if (status === 500)
    return body.startsWith('Request error: Invalid request body')
      ? null
      : `500 ${body.slice(0, 80)}`;
  if (status !== 200) return `status ${status} on a JSON-RPC surface`;
  if (body === '') return null; // HEAD, OPTIONS
  try {
    const v = JSON.parse(body) as unknown;
    const calls = Array.isArray(v) ? v : [v];
    for (const c of calls)
      if (typeof c !== 'object' || c === null || !('id' in c) || !('result' in c || 'error' in c))
        return `not a JSON-RPC answer: ${body.slice(0, 80)}`;
    return null;
  } catch {
    return `not JSON: ${body.slice(0, 80)}`;
  }
}

async function send(url: string, r: FuzzRequest): Promise<{ status: number; body: string }> {
  const signal = AbortSignal.timeout(ANSWER_MS);
  const res = await fetch(`${url}${r.path}`, {
    method: r.method,
    headers: r.headers,
    ...(r.body === null ? {} : { body: r.body }),
    signal,
  });
  return { status: res.status, body: await res.text() };
}

/** Fuzzes `s` at `url`; `alive` is asked after, and `pid`'s memory watched. */
async function fuzzSurface(
  url: string,
  s: Surface,
  seed: number,
  pid: number | undefined,
  headers: Record<string, string>,
): Promise<void> {
  const rng = new Rng(seed);
  const counts = new Map<number, number>();
  const bad: string[] = [];
  let next = 0;
  let rssEarly = Number.NaN;
  const worker = async (): Promise<void> => {
    while (next < REQUESTS) {
      const i = next++;
      if (i === Math.floor(REQUESTS / 5)) rssEarly = rssMiB(pid);
      const r = fuzzRequest(rng, s, headers, s.maxBody);
      let a: { status: number; body: string };
      try {
        a = await send(url, r);
      } catch (e) {
        // A refused oversized body may end the connection before the answer is read.
        if (r.body !== null && r.body.length > s.maxBody) continue;
        bad.push(`${r.method} ${r.path.slice(0, 60)}: ${(e as Error).message}`);
        continue;
      }
      counts.set(a.status, (counts.get(a.status) ?? 0) + 1);
      const rpc = s.methods !== null && r.method === 'POST' && s.paths.includes(r.path);
      const why = improper(rpc, a.status, a.body);
      if (why !== null && bad.length < 20) bad.push(`${r.method} ${r.path.slice(0, 60)}: ${why}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  assert.deepEqual(bad, []);
  const total = [...counts.values()].reduce((x, y) => x + y, 0);
  assert.ok(total >= REQUESTS * 0.99, `${total} answered of ${REQUESTS}`);
  assert.ok((counts.get(200) ?? 0) > 0 && counts.size > 1, JSON.stringify([...counts]));
  const rssEnd = rssMiB(pid);
  assert.ok(rssEnd < rssEarly * 1.3, `RSS ${rssEarly.toFixed(0)} → ${rssEnd.toFixed(0)} MiB`);
}

describe('HTTP surfaces fuzzed on the real node', { timeout: 1_200_000 }, () => {
  let node: NodeProcess;
  before(async () => {
    node = await startNodeProcess();
    for (let i = 0; i < 3; i++) await submit(node.url, await mineBlock(node.url));
  });
  after(async () => {
    await node.stop();
    removeHome(node.home);
  });

  for (const [k, s] of SURFACES.entries())
    it(`${s.name}: ${REQUESTS} generated requests, proper answers only, memory flat`, async () => {
      const headers: Record<string, string> = s.owner
        ? { authorization: basic(ownerSecret(node.home)) }
        : {};
      await fuzzSurface(node.url, s, SEED + k, node.proc.pid, headers);
      const tip = await fetch(`${node.url}/v2/foreign`, {
        method: 'POST',
        body: '{"jsonrpc":"2.0","method":"get_tip","params":[],"id":1}',
      });
      assert.equal(tip.status, 200);
      assert.doesNotMatch(node.stderr(), /"event":"request_failed"/);
    });
});

const WALLET_OWNER = [
  'retrieve_summary_info',
  'retrieve_outputs',
  'retrieve_txs',
  'init_send_tx',
  'issue_invoice_tx',
  'process_invoice_tx',
  'finalize_tx',
  'cancel_tx',
  'post_tx',
  'get_stored_tx',
  'verify_slate_messages',
  'accounts',
  'create_account_path',
  'set_active_account',
  'node_height',
  'retrieve_payment_proof',
  'verify_payment_proof',
  'init_secure_api',
  'open_wallet',
  'encrypted_request_v3',
];
const WALLET_FOREIGN = [
  'check_version',
  'build_coinbase',
  'build_foundation',
  'verify_slate_messages',
  'receive_tx',
  'finalize_invoice_tx',
];

describe('HTTP surfaces fuzzed on the real wallet', { timeout: 1_200_000 }, () => {
  let node: NodeProcess;
  let owner: WalletListener;
  let foreign: WalletListener;
  let walletHome = '';
  before(async () => {
    node = await startNodeProcess();
    walletHome = tempHome();
    const w = testWallet(walletHome, 'automated', {
      url: node.url,
      secretPath: join(node.home, '.api_secret'),
    });
    const init = await walletCommand(w, ['init']);
    assert.equal(init.code, 0, init.stderr);
    owner = await startWalletListener(w, 'owner_api');
    foreign = await startWalletListener(w, 'listen');
  });
  after(async () => {
    await owner.stop();
    await foreign.stop();
    await node.stop();
    removeHome(node.home);
    removeHome(walletHome);
  });

  const wallet: readonly [string, Surface, () => WalletListener][] = [
    [
      'owner',
      {
        name: 'wallet owner',
        paths: ['/v2/owner', '/v3/owner'],
        methods: WALLET_OWNER,
        owner: false,
        maxBody: 16 << 20,
      },
      () => owner,
    ],
    [
      'foreign',
      {
        name: 'wallet foreign',
        paths: ['/v2/foreign'],
        methods: WALLET_FOREIGN,
        owner: false,
        maxBody: 16 << 20,
      },
      () => foreign,
    ],
  ];
  for (const [k, [, s, listener]] of wallet.entries())
    it(`${s.name}: ${REQUESTS} generated requests, proper answers only, memory flat`, async () => {
      const l = listener();
      await fuzzSurface(l.url, s, SEED + 100 + k, l.proc.pid, {});
      assert.doesNotMatch(l.stderr(), /"event":"request_failed"/);
    });
});
