// The verification jobs of the worker pool: kernel signatures and range proofs. Items cross the
// thread boundary as bytes (a kernel in its protocol-2 wire form; a commitment followed by its
// proof); a worker verifies its chunk as one batch and, only if the batch fails, bisects it to
// name the bad items. Results come back per item, in order.
import { CHAIN_PARAMS } from '../core/chain_type.js';
import {
  findInvalidRangeProofs,
  type RangeProofItem,
  verifyRangeBatch,
} from '../core/crypto/bulletproof/batch.js';
import { findInvalidKernels, verifyKernelsBatch } from '../core/crypto/kernel.js';
import { decode, encode } from '../core/ser/codec.js';
import { SerError } from '../core/ser/errors.js';
import { PROTOCOL_VERSION_2 } from '../core/ser/params.js';
import { readKernel, writeKernel } from '../core/ser/transaction.js';
import { COMMITMENT_SIZE, RANGE_PROOF_SIZE, type TxKernel } from '../core/types/transaction.js';
import type { JobResult, KindTable } from '../runtime/job.js';
import type { WorkPool } from '../runtime/workpool.js';
import { installSecpBackend } from './secp_addon.js';

export const KERNELS_JOB = 'verifyKernels';
export const RANGE_PROOFS_JOB = 'verifyRangeProofs';

/** Why an item failed: its bytes did not decode, or its signature / proof is wrong. */
export type VerifyFailure = 'CorruptedData' | 'InvalidSignature' | 'InvalidRangeProof';

// A kernel's bytes do not depend on the chain type; any chain's wire parameters decode them.
const WIRE = CHAIN_PARAMS.mainnet;
const VALID: JobResult = { ok: true };
const CORRUPTED: JobResult = { ok: false, code: 'CorruptedData' };

/**
 * Verifies the decodable items as one batch, bisecting on failure; undecodable items fail with
 * CorruptedData without spoiling the batch of the others.
 */
function verifyItems<T>(
  items: readonly Uint8Array[],
  read: (bytes: Uint8Array) => T | null,
  batch: (values: readonly T[]) => boolean,
  invalid: (values: readonly T[]) => number[],
  failure: VerifyFailure,
): JobResult[] {
  const results: JobResult[] = new Array(items.length).fill(VALID);
  const values: T[] = [];
  const at: number[] = [];
  items.forEach((bytes, i) => {
    const value = read(bytes);
    if (value === null) results[i] = CORRUPTED;
    else {
      values.push(value);
      at.push(i);
    }
  });
  if (!batch(values))
    for (const k of invalid(values)) results[at[k] as number] = { ok: false, code: failure };
  return results;
}

function readKernelItem(bytes: Uint8Array): TxKernel | null {
  try {
    return decode(readKernel, bytes, PROTOCOL_VERSION_2, WIRE, 'kernel');
  } catch (e) {
    if (e instanceof SerError) return null;
    throw e;
  }
}

function readRangeProofItem(bytes: Uint8Array): RangeProofItem | null {
  if (bytes.length !== COMMITMENT_SIZE + RANGE_PROOF_SIZE) return null;
  return { commit: bytes.subarray(0, COMMITMENT_SIZE), proof: bytes.subarray(COMMITMENT_SIZE) };
}

let backendTried = false;

/** Installs the native MSM backend (if built) in this worker before its first verification. */
function withBackend(): void {
  if (backendTried) return;
  backendTried = true;
  installSecpBackend();
}

/** The kinds pool workers run (registered in runtime/pool_kinds.ts). */
export const verifyKinds: KindTable = {
  [KERNELS_JOB]: (items) => {
    withBackend();
    return verifyItems(
      items,
      readKernelItem,
      verifyKernelsBatch,
      findInvalidKernels,
      'InvalidSignature',
    );
  },
  [RANGE_PROOFS_JOB]: (items) => {
    withBackend();
    return verifyItems(
      items,
      readRangeProofItem,
      verifyRangeBatch,
      findInvalidRangeProofs,
      'InvalidRangeProof',
    );
  },
};

/** Per item: null when valid, else why not. */
export type Verdict = VerifyFailure | null;

function verdicts(results: readonly JobResult[]): Verdict[] {
  return results.map((r) => (r.ok ? null : (r.code as VerifyFailure)));
}

/** Verifies kernel signatures in the pool; one verdict per kernel, in order. */
export async function verifyKernels(
  pool: WorkPool,
  kernels: readonly TxKernel[],
): Promise<Verdict[]> {
  const items = kernels.map((k) => encode(writeKernel, k, PROTOCOL_VERSION_2, WIRE));
  return verdicts(await pool.runBatch(KERNELS_JOB, items));
}

/** Verifies range proofs against their commitments in the pool; one verdict per output. */
export async function verifyRangeProofs(
  pool: WorkPool,
  outputs: readonly { readonly commit: Uint8Array; readonly proof: Uint8Array }[],
): Promise<Verdict[]> {
  const items = outputs.map((o) => {
    const item = new Uint8Array(o.commit.length + o.proof.length);
    item.set(o.commit);
    item.set(o.proof, o.commit.length);
    return item;
  });
  return verdicts(await pool.runBatch(RANGE_PROOFS_JOB, items));
}
