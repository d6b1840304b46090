// The baselines bench/wallet.ts sets a scan against, measured in the same run on the same node:
// the bare page fetch (get_pmmr_indices, then every get_unspent_outputs page of 1,000 with
// proofs, decoded by the wallet's NodeClient, as the scan asks for them) and the bare matching
// (ScanMatcher over the fetched pages, without node or store), on the JavaScript arithmetic and
// on the native addon, split into foreign outputs (two failed rewinds each) and the wallet's
// (a rewind, then a key derivation and a commitment each, timed apart).
import type { NodeClient, UnspentPage } from '../../actors/wallet/node_client.js';
import { SCAN_BATCH } from '../../actors/wallet/scan.js';
import { ProofBuilder, rewindWithBuilder } from '../../core/crypto/bulletproof/index.js';
import { type MsmBackend, msmBackend, setMsmBackend } from '../../core/crypto/ec/backend.js';
import type { ExtKeychain } from '../../core/keychain/keychain.js';
import { type ChainUnspentOutput, ScanMatcher } from '../../core/wallet/scan_match.js';
import { processCpuMs } from './cpu.js';

export interface PageFetch {
  readonly pages: UnspentPage[];
  readonly outputs: number;
  readonly wallS: number;
  /** The node's CPU seconds meanwhile (NaN without /proc). */
  readonly nodeCpuS: number;
}

/** Every page of unspent outputs between the heights, as scanChain requests them. */
export async function fetchPages(
  client: NodeClient,
  nodePid: number | undefined,
  startHeight: bigint,
  endHeight: bigint,
): Promise<PageFetch> {
  const cpu0 = processCpuMs(nodePid);
  const t0 = performance.now();
  const range = await client.getPmmrIndices(startHeight, endHeight);
  const pages: UnspentPage[] = [];
  let start = range.startIndex;
  for (;;) {
    const page = await client.getUnspentOutputs(start, range.endIndex, SCAN_BATCH);
    pages.push(page);
    if (page.highestIndex <= page.lastRetrievedIndex) break;
    if (page.lastRetrievedIndex < start) throw new Error('the node went backwards');
    start = page.lastRetrievedIndex + 1n;
  }
  return {
    pages,
    outputs: pages.reduce((n, p) => n + p.outputs.length, 0),
    wallS: (performance.now() - t0) / 1000,
    nodeCpuS: (processCpuMs(nodePid) - cpu0) / 1000,
  };
}

export interface MatchCost {
  readonly arithmetic: 'js' | 'native';
  readonly found: number;
  readonly outputs: number;
  /** CPU seconds of this process for the whole set (the matcher is synchronous). */
  readonly cpuS: number;
  /** µs per foreign output, µs per wallet output. */
  readonly foreignUs: number;
  readonly walletUs: number;
  /** µs of a wallet output's rewind alone (the rest is key derivation and commitment). */
  readonly walletRewindUs: number;
}

function cpuSeconds(fn: () => void): number {
  const c0 = process.cpuUsage();
  fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
}

/**
 * ScanMatcher over all fetched outputs (the scan's matching work, nothing else), then over the
 * foreign and the wallet's outputs apart. `native` null: the JavaScript arithmetic.
 */
export function matchCost(
  keychain: ExtKeychain,
  pages: readonly UnspentPage[],
  native: MsmBackend | null,
): MatchCost {
  const before = msmBackend();
  setMsmBackend(native);
  try {
    const matcher = new ScanMatcher(keychain, 'automated');
    const all = pages.flatMap((p) => p.outputs);
    const mine = new Set<string>();
    const cpuS = cpuSeconds(() => {
      for (const p of pages) for (const f of matcher.matchPage(p.outputs)) mine.add(f.commit);
    });
    const found = mine.size;
    const hex = (o: ChainUnspentOutput) => Buffer.from(o.commit).toString('hex');
    const wallet = all.filter((o) => mine.has(hex(o)));
    const foreign = all.filter((o) => !mine.has(hex(o)));
    const per = (set: ChainUnspentOutput[], fn: (o: ChainUnspentOutput) => unknown): number =>
      set.length === 0 ? Number.NaN : (cpuSeconds(() => set.forEach(fn)) * 1e6) / set.length;
    const builder = ProofBuilder.fromMasterSecret(keychain.master.secretKey);
    return {
      arithmetic: native === null ? 'js' : 'native',
      found,
      outputs: all.length,
      cpuS,
      foreignUs: per(foreign, (o) => matcher.match(o)),
      walletUs: per(wallet, (o) => matcher.match(o)),
      walletRewindUs: per(wallet, (o) => rewindWithBuilder(builder, o.commit, o.proof)),
    };
  } finally {
    setMsmBackend(before);
  }
}
