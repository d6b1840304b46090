// The Fiat–Shamir transcript of secp256k1-zkp bulletproofs: a 32-byte SHA-256 chain. Points are
// absorbed in pairs as (x-coordinates, one byte of "y is not a QR" flags), so the verifier can
// hash them straight from the proof bytes without decoding.
import { sha256 } from '@noble/hashes/sha2.js';
import { CURVE_N, readU256 } from '../curve.js';
import { H_X } from '../generators.js';
import { mainNonQr, mainOffset } from './layout.js';

export class Transcript {
  private c: Uint8Array = new Uint8Array(32);
  private readonly flag = new Uint8Array(1);

  /** Absorbs two points given by their 32-byte x and non-QR flags. */
  absorbPair(x1: Uint8Array, nq1: boolean, x2: Uint8Array, nq2: boolean): void {
    this.flag[0] = (nq1 ? 2 : 0) | (nq2 ? 1 : 0);
    this.c = sha256.create().update(this.c).update(this.flag).update(x1).update(x2).digest();
  }

  /** Absorbs two points whose flags are already packed as the parity byte (bit 1 = first). */
  absorbPacked(flags: number, x1: Uint8Array, x2: Uint8Array): void {
    this.absorbPair(x1, (flags & 2) !== 0, x2, (flags & 1) !== 0);
  }

  absorb(data: Uint8Array): void {
    this.c = sha256.create().update(this.c).update(data).digest();
  }

  /** The current state as a challenge; null when it is 0 or not below n (proof rejected). */
  challenge(): bigint | null {
    const v = readU256(this.c);
    return v === 0n || v >= CURVE_N ? null : v;
  }

  state(): Uint8Array {
    return this.c.slice();
  }
}

/** The transcript after x, and the challenges y, z, x (each null when out of range). */
export interface OpeningChallenges {
  readonly transcript: Transcript;
  readonly y: bigint | null;
  readonly z: bigint | null;
  readonly x: bigint | null;
}

/**
 * Replays the transcript from a proof's bytes up to x: commitment and H, then A and S (for y,
 * and again for z), then T1 and T2. Shared by the verifier and rewind.
 */
export function replayOpening(commitment: Uint8Array, proof: Uint8Array): OpeningChallenges {
  const tr = new Transcript();
  tr.absorbPair(commitment.subarray(1, 33), ((commitment[0] as number) & 1) === 1, H_X, true);
  const pair = (k: 0 | 2) => {
    const [a, b] = [mainOffset(k), mainOffset((k + 1) as 1 | 3)];
    tr.absorbPair(
      proof.subarray(a, a + 32),
      mainNonQr(proof, k),
      proof.subarray(b, b + 32),
      mainNonQr(proof, k + 1),
    );
    return tr.challenge();
  };
  const y = pair(0);
  const z = pair(0);
  const x = pair(2);
  return { transcript: tr, y, z, x };
}
