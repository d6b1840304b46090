// The signed material of the state-sync bench's synthetic archive (state_sync_archive.ts).
// Proving a range proof costs 0.1–0.2 s in JavaScript, so 100,000 distinct outputs would take
// hours; instead a few distinct "pairs" are made and repeated. A pair is a blind r, the output
// C = r·G + 0·H with a valid bulletproof, and a plain kernel (fee 0) whose excess is the same
// point r·G, signed with r: each pair sums to zero, so any number of copies keeps the kernel sums
// balanced. Nothing in validation dedupes or caches (batch verification weighs every proof and
// signature afresh), so a copy costs what a distinct item would.
//
// The pairs are cached in bench/cache/ (gitignored) and batch-verified whenever they are read:
// a damaged cache is made again rather than trusted.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { publicKeyFromSecret, signSingle } from '../../core/crypto/aggsig.js';
import { type RangeProofItem, verifyRangeBatch } from '../../core/crypto/bulletproof/batch.js';
import { proveRange } from '../../core/crypto/bulletproof/prover.js';
import { commit } from '../../core/crypto/commit.js';
import { kernelSigMessage, verifyKernelsBatch } from '../../core/crypto/kernel.js';
import type { KernelFeatures, Output, TxKernel } from '../../core/types/transaction.js';
import { cachePath, readCost, writeCost } from './chain_file.js';

/** One output and the kernel that cancels it (or, for the reward, pays it out). */
export interface Pair {
  readonly output: Output;
  readonly kernel: TxKernel;
}

const BLIND = 32;
const COMMIT = 33;
const PROOF = 675;
const SIG = 64;
/** Per pair: commitment ‖ proof ‖ signature (the blinds are not needed again). */
const RECORD = COMMIT + PROOF + SIG;
/** Changes whenever the pairs would be made differently (the cache file's name). */
const PAIRS_VERSION = 'p1';

function randomBlind(): Uint8Array {
  // Any 32 random bytes are below the group order but for odds of 2^-128.
  return globalThis.crypto.getRandomValues(new Uint8Array(BLIND));
}

/** The output committing `value` with `blind`, and a kernel of `features` signed with `blind`. */
export function makePair(value: bigint, blind: Uint8Array, features: KernelFeatures): Pair {
  const commitment = commit(value, blind);
  const nonce = randomBlind();
  const proof = proveRange({ value, blind, rewindNonce: nonce, privateNonce: nonce });
  const sig = signSingle(kernelSigMessage(features), blind, {
    pubkeyForE: publicKeyFromSecret(blind),
  });
  return {
    output: { features: value === 0n ? 'Plain' : 'Coinbase', commit: commitment, proof },
    kernel: { features, excess: commit(0n, blind), excessSig: sig },
  };
}

const PLAIN: KernelFeatures = { kind: 'Plain', fee: 0n };

function encodePairs(pairs: readonly Pair[]): Uint8Array {
  const out = new Uint8Array(RECORD * pairs.length);
  pairs.forEach((p, i) => {
    const at = RECORD * i;
    // The excess of a value-0 pair is its output commitment: only the commitment is kept.
    out.set(p.output.commit, at);
    out.set(p.output.proof, at + COMMIT);
    out.set(p.kernel.excessSig, at + COMMIT + PROOF);
  });
  return out;
}

function decodePairs(bytes: Uint8Array): Pair[] | null {
  if (bytes.length === 0 || bytes.length % RECORD !== 0) return null;
  const pairs: Pair[] = [];
  for (let at = 0; at < bytes.length; at += RECORD) {
    const c = bytes.slice(at, at + COMMIT);
    pairs.push({
      output: {
        features: 'Plain',
        commit: c,
        proof: bytes.slice(at + COMMIT, at + COMMIT + PROOF),
      },
      kernel: {
        features: PLAIN,
        excess: c,
        excessSig: bytes.slice(at + RECORD - SIG, at + RECORD),
      },
    });
  }
  return pairs;
}

/** Every proof and signature of `pairs` verifies (one batch each). */
export function pairsVerify(pairs: readonly Pair[]): boolean {
  const items: RangeProofItem[] = pairs.map((p) => p.output);
  return verifyRangeBatch(items) && verifyKernelsBatch(pairs.map((p) => p.kernel));
}

export interface PairSet {
  readonly pairs: Pair[];
  readonly cached: boolean;
  /** Seconds making them took (recorded beside the cache; null if not recorded). */
  readonly seconds: number | null;
}

/** `count` distinct value-0 pairs, read from the cache or made (and cached) first. */
export function ensurePairs(count: number, log: (line: string) => void): PairSet {
  const file = cachePath(`state-sync-pairs-${PAIRS_VERSION}-${count}.bin`);
  if (existsSync(file)) {
    const pairs = decodePairs(new Uint8Array(readFileSync(file)));
    if (pairs !== null && pairs.length === count && pairsVerify(pairs))
      return { pairs, cached: true, seconds: readCost<{ seconds: number }>(file)?.seconds ?? null };
    log(`${file} is damaged: making the pairs again`);
  }
  log(`proving ${count} range proofs (0.1–0.2 s each; cached in ${file} for later runs)`);
  const started = performance.now();
  const pairs: Pair[] = [];
  for (let i = 0; i < count; i++) {
    pairs.push(makePair(0n, randomBlind(), PLAIN));
    if ((i + 1) % 32 === 0) log(`  ${i + 1} pairs`);
  }
  if (!pairsVerify(pairs)) throw new Error('a freshly made pair does not verify');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, encodePairs(pairs));
  renameSync(`${file}.tmp`, file);
  const seconds = (performance.now() - started) / 1000;
  writeCost(file, { pairs: count, seconds });
  return { pairs, cached: false, seconds };
}

/** The output holding the chain's whole reward so far (`value`) and its coinbase kernel. */
export function rewardPair(value: bigint): Pair {
  const pair = makePair(value, randomBlind(), { kind: 'Coinbase' });
  if (!pairsVerify([pair])) throw new Error('the reward pair does not verify');
  return pair;
}
