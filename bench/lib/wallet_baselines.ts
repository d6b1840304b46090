// The baselines bench/wallet.ts sets a scan against, measured in the same run on the same node:
// the bare page fetch (get_pmmr_indices, then every get_unspent_outputs page of 1,000 with
// proofs, decoded by the wallet's NodeClient, as the scan asks for them) and the bare matching
// (ScanMatcher over the fetched pages, without node or store), on the JavaScript arithmetic and
// on the native addon, split into foreign outputs (two failed rewinds each) and the wallet's
// (a rewind, then a key derivation and a commitment each, timed apart).
import type { NodeClient, UnspentPage } from '../../actors/wallet/node_client.js';
import { SCAN_BATCH } from '../../actors/wallet/scan.js';
import { ProofBuilder, rewindWithBuilder } from '../../core/crypto/bulletproof/index.js';
import { commit } from '../../core/crypto/commit.js';
import { type MsmBackend, msmBackend, setMsmBackend } from '../../core/crypto/ec/backend.js';
import { Identifier } from '../../core/keychain/identifier.js';
import type { ExtKeychain } from '../../core/keychain/keychain.js';
import { SwitchCommitmentType } from '../../core/keychain/switch_type.js';
import {
  type ChainUnspentOutput,
  type FoundOutput,
  ScanMatcher,
} from '../../core/wallet/scan_match.js';
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
  /** µs of a wallet output's steps: rewind, derive_key (BIP32 path + switch), commitment. */
  readonly walletRewindUs: number;
  readonly walletDeriveUs: number;
  readonly walletCommitUs: number;
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
    const hits: FoundOutput[] = [];
    const cpuS = cpuSeconds(() => {
      for (const p of pages) hits.push(...matcher.matchPage(p.outputs));
    });
    for (const f of hits) mine.add(f.commit);
    const found = mine.size;
    const ids = hits.map((f) => ({ value: f.value, id: Identifier.fromHex(f.keyId) }));
    const blinds = ids.map((k) => keychain.deriveKey(k.value, k.id, SwitchCommitmentType.Regular));
    const each = (n: number, fn: (i: number) => unknown): number => {
      if (n === 0) return Number.NaN;
      return (
        (cpuSeconds(() => {
          for (let i = 0; i < n; i++) fn(i);
        }) *
          1e6) /
        n
      );
    };
    const hex = (o: ChainUnspentOutput) => Buffer.from(o.commit).toString('hex');
    const wallet = all.filter((o) => mine.has(hex(o)));
    const foreign = all.filter((o) => !mine.has(hex(o)));
    const per = (set: ChainUnspentOutput[], fn: (o: ChainUnspentOutput) => unknown): number =>
      set.length === 0
        ? Number.NaN
        : (cpuSeconds(() => {
            for (const o of set) fn(o);
          }) *
            1e6) /
          set.length;
    const builder = ProofBuilder.fromMasterSecret(keychain.master.secretKey);
    return {
      arithmetic: native === null ? 'js' : 'native',
      found,
      outputs: all.length,
      cpuS,
      foreignUs: per(foreign, (o) => matcher.match(o)),
      walletUs: per(wallet, (o) => matcher.match(o)),
      walletRewindUs: per(wallet, (o) => rewindWithBuilder(builder, o.commit, o.proof)),
      walletDeriveUs: each(ids.length, (i) => {
        const k = ids[i] as { value: bigint; id: Identifier };
        return keychain.deriveKey(k.value, k.id, SwitchCommitmentType.Regular);
      }),
      walletCommitUs: each(ids.length, (i) =>
        commit((ids[i] as { value: bigint }).value, blinds[i] as Uint8Array),
      ),
    };
  } finally {
    setMsmBackend(before);
  }
}
