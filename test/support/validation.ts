// Shared by the validation tests: the typed-error assertion and a header builder.
import assert from 'node:assert/strict';
import { type ValidationCode, ValidationError } from '../../core/consensus/validation.js';
import type { BlockHeader } from '../../core/types/block.js';

export const HEIGHT = 20n;

export function rejects(f: () => void, code: ValidationCode): void {
  assert.throws(f, (e: unknown) => {
    assert.ok(e instanceof ValidationError, String(e));
    assert.equal(e.code, code, e.message);
    return true;
  });
}

/** A RandomX header at HEIGHT with all-zero roots; `over` and `pow` replace fields. */
export function header(
  over: Partial<BlockHeader> = {},
  pow: Partial<BlockHeader['pow']> = {},
): BlockHeader {
  const z = new Uint8Array(32);
  return {
    version: 6,
    height: HEIGHT,
    timestamp: 1_700_000_000,
    prevHash: z,
    prevRoot: z,
    outputRoot: z,
    rangeProofRoot: z,
    kernelRoot: z,
    totalKernelOffset: z,
    outputMmrSize: 0n,
    kernelMmrSize: 0n,
    pow: {
      totalDifficulty: { cuckaroo: 10n, cuckatoo: 20n, randomx: 1_500n, progpow: 40n },
      secondaryScaling: 0,
      nonce: 0n,
      proof: { kind: 'RandomX', hash: z },
      seed: z,
      ...pow,
    },
    policy: 0,
    bottles: {},
    ...over,
  };
}
