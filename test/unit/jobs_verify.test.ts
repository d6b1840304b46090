// The verification jobs through the real worker pool, on Epic's own foundation outputs and
// kernels: every item verifies; tampered items are named exactly (and only they), undecodable
// ones are CorruptedData, and the verdicts stay in item order across chunks.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CHAIN_PARAMS } from '../../core/chain_type.js';
import { parseJson } from '../../core/json/parse.js';
import { encode } from '../../core/ser/codec.js';
import { writeKernel } from '../../core/ser/transaction.js';
import { type CbData, cbDataFromJson } from '../../core/serde/cbdata.js';
import type { TxKernel } from '../../core/types/transaction.js';
import { KERNELS_JOB, verifyKernels, verifyRangeProofs } from '../../jobs/verify.js';
import { WorkPool } from '../../runtime/workpool.js';
import { SHARED_VECTORS } from '../support/paths.js';

const FOUNDATION: CbData[] = readFileSync(join(SHARED_VECTORS, 'foundation_floonet.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.length > 0)
  .map((l, i) => cbDataFromJson(parseJson(l), `line ${i + 1}`));

function flipped(bytes: Uint8Array, at: number): Uint8Array {
  const copy = bytes.slice();
  copy[at] = (copy[at] as number) ^ 1;
  return copy;
}

describe('verification jobs in the worker pool', () => {
  const pool = new WorkPool({ threads: 2, maxItemsPerJob: 32 });
  after(() => pool.close());

  it('all 500 foundation kernels verify; verdicts are index-aligned', async () => {
    const verdicts = await verifyKernels(
      pool,
      FOUNDATION.map((c) => c.kernel),
    );
    assert.equal(verdicts.length, 500);
    assert.deepEqual(new Set(verdicts), new Set([null]));
  });

  it('tampered kernels are named exactly, in every chunk they fall in', async () => {
    const bad = new Set([0, 31, 32, 77, 499]);
    const kernels: TxKernel[] = FOUNDATION.map((c, i) =>
      bad.has(i) ? { ...c.kernel, excessSig: flipped(c.kernel.excessSig, 63) } : c.kernel,
    );
    const verdicts = await verifyKernels(pool, kernels);
    verdicts.forEach((v, i) => {
      assert.equal(v, bad.has(i) ? 'InvalidSignature' : null, `kernel ${i}`);
    });
  });

  it('an undecodable kernel item is CorruptedData and spoils nothing else', async () => {
    const good = encode(writeKernel, FOUNDATION[0]?.kernel as TxKernel, 2, CHAIN_PARAMS.mainnet);
    const results = await pool.runBatch(KERNELS_JOB, [new Uint8Array([9, 9, 9]), good]);
    assert.deepEqual(results, [{ ok: false, code: 'CorruptedData' }, { ok: true }]);
  });

  it('range proofs: 128 verify; 3 tampered (proof or commitment) are named exactly', async () => {
    const outputs = FOUNDATION.slice(0, 128).map((c) => c.output);
    assert.deepEqual(new Set(await verifyRangeProofs(pool, outputs)), new Set([null]));
    const tampered = outputs.map((o, i) => {
      if (i === 5) return { ...o, proof: flipped(o.proof, 400) };
      if (i === 64) return { ...o, proof: flipped(o.proof, 10) };
      if (i === 127) return { ...o, commit: FOUNDATION[200]?.output.commit as Uint8Array };
      return o;
    });
    const verdicts = await verifyRangeProofs(pool, tampered);
    verdicts.forEach((v, i) => {
      assert.equal(v, [5, 64, 127].includes(i) ? 'InvalidRangeProof' : null, `proof ${i}`);
    });
  });

  it('a range proof of the wrong length is CorruptedData', async () => {
    const o = FOUNDATION[0]?.output;
    assert.ok(o);
    const verdicts = await verifyRangeProofs(pool, [
      o,
      { commit: o.commit, proof: o.proof.subarray(1) },
    ]);
    assert.deepEqual(verdicts, [null, 'CorruptedData']);
  });
});
