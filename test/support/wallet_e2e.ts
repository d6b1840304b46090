// Shared pieces of the wallet end-to-end tests: a usernet node whose test miner pays a wallet,
// wallets created through `mwwallet init`, the tables the wallet commands print read back as
// values, and waiting for the miner.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { amountToHrString } from '../../core/amount.js';
import { type NodeProcess, removeHome, spawnNode, tempHome, writeConfig } from './node_process.js';
import {
  freePort,
  startWalletListener,
  type TestWallet,
  testWallet,
  type WalletListener,
  walletCommand,
} from './wallet_process.js';

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** One ProgPoW epoch cache for every test node of the machine (it takes seconds to build). */
export function shareProgpowCache(): void {
  const dir = join(tmpdir(), 'mwnode-e2e-progpow-cache');
  mkdirSync(dir, { recursive: true });
  process.env.MWNODE_PROGPOW_CACHE_DIR ||= dir;
}

/** `mwnode --usernet` with its default test miner, paying the wallet listening on `walletPort`. */
export function startUsernetNode(walletPort: number): Promise<NodeProcess> {
  shareProgpowCache();
  const home = tempHome();
  const miner = [`test_miner_wallet_url = "http://127.0.0.1:${walletPort}"`];
  const configFile = writeConfig(home, miner, true, 'usernet');
  return spawnNode({ home, configFile, chainFlag: '--usernet', stdout: 'ignore' });
}

/** A wallet configuration in `home` (the node's own home for wallet A) pointing at `node`. */
export function walletFor(
  node: NodeProcess,
  home: string,
  ports: { readonly foreign?: number; readonly owner?: number } = {},
): TestWallet {
  return testWallet(
    home,
    'usernet',
    { url: node.url, secretPath: join(node.home, '.api_secret') },
    ports,
  );
}

/**
 * A usernet node whose test miner pays wallet A (in the node's home, listening on `portA`), and
 * wallet B in a home of its own; both initialised.
 */
export interface TwoWallets {
  readonly node: NodeProcess;
  readonly a: TestWallet;
  readonly b: TestWallet;
  readonly phraseA: string;
  readonly portA: number;
  /** A's listener; a test may stop it (and set undefined) or start another. */
  listenA: WalletListener | undefined;
  /** Stops the listener and the node and removes both homes. */
  stop(): Promise<void>;
}

export async function twoWallets(): Promise<TwoWallets> {
  const portA = await freePort();
  const node = await startUsernetNode(portA);
  const homeB = tempHome();
  const w = {
    node,
    a: walletFor(node, node.home, { foreign: portA }),
    b: walletFor(node, homeB),
    phraseA: '',
    portA,
    listenA: undefined as WalletListener | undefined,
    stop: async () => {
      await w.listenA?.stop();
      await node.stop();
      removeHome(node.home);
      removeHome(homeB);
    },
  };
  try {
    [w.phraseA] = await Promise.all([initWallet(w.a), initWallet(w.b)]);
    w.listenA = await startWalletListener(w.a, 'listen', ['-l', String(portA)]);
  } catch (e) {
    await w.stop();
    throw e;
  }
  return w;
}

/** Runs a command that must succeed; its standard output. */
export async function ok(w: TestWallet, args: readonly string[], input = ''): Promise<string> {
  const r = await walletCommand(w, args, input);
  assert.equal(r.code, 0, `mwwallet ${args.join(' ')}:\n${r.stdout}\n${r.stderr}`);
  // What the wallet logged (a refresh that failed, a node it could not reach) explains a
  // later assertion; the test's own stderr keeps it.
  if (r.stderr.includes('"event"'))
    process.stderr.write(`mwwallet ${args[0]} (${w.home}):\n${r.stderr}`);
  return r.stdout;
}

/** `init`; the recovery phrase it printed. */
export async function initWallet(w: TestWallet): Promise<string> {
  const out = await ok(w, ['init']);
  const m = /Your recovery phrase is:\n\n(.+)\n/.exec(out);
  assert.ok(m?.[1] !== undefined, out);
  assert.equal(m[1].split(' ').length, 24);
  return m[1];
}

/** "14.57920000" → 1457920000n (Epic's 8 decimals). */
export function nanos(text: string): bigint {
  // Full (`1.50000000`) or, as the txs table prints them, truncated (`1.5`); a minus sign too.
  const m = /^(-?)(\d+)\.(\d{1,8})$/.exec(text.trim());
  assert.ok(m !== null, `not an amount: ${text}`);
  const n = BigInt(`${m[2]}${(m[3] ?? '').padEnd(8, '0')}`);
  return m[1] === '-' ? -n : n;
}

/** The rows of the `nth` table of a list command's output, keyed by its titles. */
export function tableRows(text: string, nth = 0): Record<string, string>[] {
  // epic-wallet's list layout (prettytable FORMAT_NO_COLSEP): a dashed rule, the titles, a rule
  // of `=`, rows between dashed rules. Each title starts its column; cells are cut at those places.
  const lines = text.split('\n');
  const at = lines.findIndex(
    (l, i) =>
      /^=+$/.test(l) &&
      /^-+$/.test(lines[i - 2] ?? '') &&
      lines.slice(0, i).filter((x) => /^=+$/.test(x)).length === nth,
  );
  assert.ok(at > 1, text);
  const titleLine = lines[at - 1] ?? '';
  const titles = [...titleLine.matchAll(/\S+(?: \S+)*/g)].map((m) => ({
    name: m[0],
    start: m.index,
  }));
  const rows: Record<string, string>[] = [];
  for (let i = at + 1; i < lines.length; i += 2) {
    const line = lines[i] ?? '';
    if (line === '' || /^-+$/.test(line)) break;
    rows.push(
      Object.fromEntries(
        titles.map((t, k) => [t.name, line.slice(t.start, titles[k + 1]?.start).trim()]),
      ),
    );
    if (lines[i + 1] === undefined || !/^-+$/.test(lines[i + 1] ?? '')) break;
  }
  return rows;
}

export interface Summary {
  readonly height: bigint;
  /** Label → amount, e.g. `Confirmed Total`, `Currently Spendable`. */
  readonly rows: Readonly<Record<string, bigint>>;
}

/** `info`'s summary table. */
export function summaryOf(text: string): Summary {
  const h = /as of height (\d+) ____/.exec(text);
  assert.ok(h?.[1] !== undefined, text);
  const rows: Record<string, bigint> = {};
  for (const line of text.split('\n')) {
    const m = /^ (\S.*?)\s+\| (\d+\.\d{8})\s*$/.exec(line);
    if (m?.[1] !== undefined && m[2] !== undefined) rows[m[1]] = nanos(m[2]);
  }
  return { height: BigInt(h[1]), rows };
}

export async function info(w: TestWallet): Promise<Summary> {
  return summaryOf(await ok(w, ['info', '-c', '1']));
}

export interface Mined {
  readonly height: string;
  readonly algorithm: string;
  readonly txs: number;
  readonly ts: string;
}

export function minedBlocks(node: NodeProcess): Mined[] {
  return node
    .stderr()
    .split('\n')
    .filter((l) => l.includes('"event":"block_mined"'))
    .map((l) => JSON.parse(l) as Mined);
}

/** Waits until `done()` holds, polling; fails with `why()` after `ms`. */
export async function waitUntil(
  done: () => boolean | Promise<boolean>,
  ms: number,
  why: () => string,
): Promise<void> {
  const until = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > until) assert.fail(`timed out after ${ms} ms: ${why()}`);
    await sleep(250);
  }
}

/** Waits for the next block carrying at least one transaction after `seen` blocks. */
export async function waitForTxBlock(node: NodeProcess, seen: number): Promise<Mined> {
  let found: Mined | undefined;
  await waitUntil(
    () => {
      found = minedBlocks(node)
        .slice(seen)
        .find((m) => m.txs > 0);
      return found !== undefined;
    },
    60_000,
    () => node.stderr().slice(-3000),
  );
  return found as Mined;
}

/**
 * Waits until a Foreign API answers (it is HTTP 503 `Node not synchronized` until the wallet's
 * sync poller, every 10 s as Epic's, has seen the node `no_sync`).
 */
export async function waitForeignReady(url: string): Promise<void> {
  let last = '';
  await waitUntil(
    async () => {
      const r = await fetch(`${url}/v2/foreign`, {
        method: 'POST',
        body: '{"jsonrpc":"2.0","id":1,"method":"check_version","params":[]}',
      });
      last = `${r.status} ${await r.text()}`;
      return r.status === 200;
    },
    30_000,
    () => last,
  );
}

/** Epic's fee: max(4·outputs + kernels − inputs, 1) × 0.001 EPIC. */
export function epicFee(inputs: number, outputs: number, kernels = 1): bigint {
  return BigInt(Math.max(4 * outputs + kernels - inputs, 1)) * 100_000n;
}

/**
 * The sender's log entry for slate `id`: TxSent, confirmed, its fee Epic's for its counts (the
 * receiver's output counted). Returns the fee.
 */
export async function expectSentConfirmed(a: TestWallet, id: string): Promise<bigint> {
  const shown = await ok(a, ['txs', '-t', id]);
  const [sent] = tableRows(shown);
  const [counts] = tableRows(shown, 1);
  assert.ok(sent !== undefined && counts !== undefined, `no log entry for ${id}`);
  assert.deepEqual([sent.Type, sent['Confirmed?']], ['Sent', 'true']);
  const fee = nanos(sent.Fee ?? '');
  assert.equal(fee, epicFee(Number(counts['Num. Inputs']), Number(counts['Num. Outputs']) + 1));
  return fee;
}

/** A receiver whose only history is slate `id` of `amount` (nanos): its log and `info`, exactly. */
export async function expectOnlyReceived(b: TestWallet, id: string, amount: bigint): Promise<void> {
  assert.deepEqual(
    tableRows(await ok(b, ['txs'])).map((t) => [
      t.Type,
      t['Shared Tx Id'],
      t['Confirmed?'],
      t['Change Returned'],
    ]),
    [['Received', id, 'true', amountToHrString(amount, true)]],
  );
  assert.deepEqual((await info(b)).rows, {
    'Confirmed Total': amount,
    'Awaiting Confirmation (< 1)': 0n,
    'Awaiting Finalization': 0n,
    'Locked by transaction': 0n,
    'Currently Spendable': amount,
  });
}

export { tempHome };
