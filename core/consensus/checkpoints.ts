// Mainnet checkpoints (Epic `chain/src/types.rs`) and the header hashes Epic always rejects
// (`chain/src/pipe.rs` `check_bad_header`). Epic consults both whatever the chain type, and so
// do we: no other chain is long enough to reach the first checkpoint.
import { toHex } from '../bytes.js';

export interface Checkpoint {
  readonly height: bigint;
  /** Block hash, lower-case hex. */
  readonly hash: string;
}

export const MAINNET_CHECKPOINTS: readonly Checkpoint[] = [
  { height: 100_000n, hash: 'e835eb9ebc9f2e13b11061691cb268f44b20001f081003169b634497eb730848' },
  { height: 200_000n, hash: 'b2365a8c9719a709f11d450bbddfd012011e21c862239bdc8590aba00815e84c' },
  { height: 400_000n, hash: '6578f1cdf5504d29fc757424e75ac60494e0f6d24b7553d124c8bea6ef99b5d8' },
  { height: 600_000n, hash: 'de483eafb2141d66bf541a94d8e41858f01ffc517b9fa61d8781483c34c2a6f7' },
  { height: 800_000n, hash: '1465e7c094376e781b1e80ebd6b7a0c6350ec4d6554f9acdd843802162831003' },
  { height: 1_000_000n, hash: '00e4a404130ac192face23fd25f2c46a99a38a31d8cf2d3cc79ea7a518830686' },
  { height: 1_200_000n, hash: '8d69282df5579d32346ad0f6d3f4e03a43b1e00e741b1f3ba71c2934d81e5e1a' },
  { height: 1_400_000n, hash: 'e7e34e50e8a5c9bcf3fe7b7ad99e62a848cda37171ce8d37f21bc334035df4d2' },
  { height: 1_600_000n, hash: 'ba44beaf37776c3e7da3f4a1b906ae238e1178794cbaa90685e3945d2662d7a2' },
  { height: 1_800_000n, hash: '4f23aaf2e83e4041cac670226d3024f4468e3b9bb6ffa2548ebc59489bd09b63' },
  { height: 2_000_000n, hash: 'eaf5d7a4b6f07ccb8bdbe5db2f39e10eea3ee1c28f8333907d91c9ccc21ce99d' },
  { height: 2_200_000n, hash: '1243520890d08026daba8207ed3d67186da64d2b71b5c1e2dd26d34092dee6ba' },
];

export const LAST_CHECKPOINT_HEIGHT: bigint = (MAINNET_CHECKPOINTS.at(-1) as Checkpoint).height;

/** Headers refused on sight, before any proof-of-work check. */
export const BAD_HEADER_HASHES: readonly string[] = [
  '840cdf3ad968bd6895b07e4e3235ee704226f85c3163d2da2e6764c7e2b81ea2',
  'a98bbc899892d2553c52ef17cab6d708f9eaf7d575b3d62ca49bbf9d50ae55a7',
];

const BY_HEIGHT = new Map(MAINNET_CHECKPOINTS.map((c) => [c.height, c.hash]));
const BAD = new Set(BAD_HEADER_HASHES);

/** The checkpointed hash at exactly this height, if there is one. */
/**
 * The checkpoints are mainnet's block hashes: on any other chain they could only refuse its
 * valid blocks at those heights, so they apply on mainnet alone (Epic checks them on every
 * chain type when enabled, and its default config disables them everywhere).
 */
export function checkpointsApply(type: string): boolean {
  return type === 'mainnet';
}

export function checkpointAt(height: bigint): string | undefined {
  return BY_HEIGHT.get(height);
}

/**
 * Epic's `check_header_against_checkpoints`: `inside` for any height up to the last checkpoint
 * (the sync may then skip proof-of-work when so configured), `outside` above it, `mismatch`
 * when the height is checkpointed and the hash differs.
 */
export type CheckpointVerdict = 'inside' | 'outside' | 'mismatch';

export function checkpointVerdict(height: bigint, hash: Uint8Array): CheckpointVerdict {
  if (height > LAST_CHECKPOINT_HEIGHT) return 'outside';
  const expected = checkpointAt(height);
  return expected === undefined || expected === toHex(hash) ? 'inside' : 'mismatch';
}

/**
 * The checkpoint a header chain whose tip is at `tipHeight` has passed, if a fork leaving it at
 * `forkPoint` would have to go below it: such a fork can never link to that checkpoint's hash.
 * Null when the fork is allowed.
 */
export function forkBelowCheckpoint(forkPoint: bigint, tipHeight: bigint): bigint | null {
  let passed: bigint | null = null;
  for (const c of MAINNET_CHECKPOINTS) if (c.height <= tipHeight) passed = c.height;
  return passed !== null && forkPoint < passed ? passed : null;
}

export function isBadHeader(hash: Uint8Array): boolean {
  return BAD.has(toHex(hash));
}
