// Blinding factors (32 raw bytes, zero allowed) and the sums Epic builds from them: `+` on two
// factors, kernel offset sums, the random split of a transaction's excess, and `BlindSum`, the
// list of key ids and factors that `ExtKeychain.blindSum` adds up.

import { fromHex, isZero, toHex } from '../bytes.js';
import { KeychainError } from './errors.js';
import type { ExtKeychainPath } from './identifier.js';
import {
  blindSumKeys,
  randomSecretKey,
  SECRET_KEY_SIZE,
  secretKeyFromSlice,
  sumBlindingKeys,
  ZERO_KEY,
} from './secret.js';
import { SwitchCommitmentType } from './switch_type.js';

const HIDDEN = 'BlindingFactor(<secret key hidden>)';

export class BlindingFactor {
  private constructor(private readonly raw: Uint8Array) {}

  static zero(): BlindingFactor {
    return new BlindingFactor(new Uint8Array(SECRET_KEY_SIZE));
  }

  /** First 32 bytes of the input, zero-padded when shorter (`BlindingFactor::from_slice`). */
  static fromSlice(data: Uint8Array): BlindingFactor {
    const out = new Uint8Array(SECRET_KEY_SIZE);
    out.set(data.subarray(0, SECRET_KEY_SIZE));
    return new BlindingFactor(out);
  }

  static fromSecretKey(key: Uint8Array): BlindingFactor {
    return BlindingFactor.fromSlice(key);
  }

  /** Lenient in length like Epic; non-hex text throws (Epic panics). */
  static fromHex(hex: string): BlindingFactor {
    const bytes = fromHex(hex);
    if (bytes === null) throw new KeychainError('InvalidSecretKey', 'blinding factor is not hex');
    return BlindingFactor.fromSlice(bytes);
  }

  toBytes(): Uint8Array {
    return Uint8Array.from(this.raw);
  }

  toHex(): string {
    return toHex(this.raw);
  }

  isZero(): boolean {
    return isZero(this.raw);
  }

  equals(other: BlindingFactor): boolean {
    return this.toHex() === other.toHex();
  }

  /** ZERO_KEY for the zero factor, otherwise the bytes if they are a valid secret key. */
  secretKey(): Uint8Array {
    return this.isZero() ? Uint8Array.from(ZERO_KEY) : secretKeyFromSlice(this.raw);
  }

  /** Epic's `Add`: zero and invalid factors are dropped; nothing left gives zero. */
  add(other: BlindingFactor): BlindingFactor {
    return sumBlindingFactors([this, other], []);
  }

  /** k = k₁ + k₂ with k₁ random (the kernel excess) and k₂ = k − k₁ (the offset). */
  split(random: () => Uint8Array = randomSecretKey): SplitBlindingFactor {
    const k1 = secretKeyFromSlice(random());
    const k2 = blindSumKeys([this.secretKey()], [k1]);
    return { blind1: BlindingFactor.fromSecretKey(k1), blind2: BlindingFactor.fromSecretKey(k2) };
  }

  // Keep secrets out of logs and string interpolation.
  toString(): string {
    return HIDDEN;
  }

  toJSON(): string {
    return HIDDEN;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return HIDDEN;
  }
}

export interface SplitBlindingFactor {
  readonly blind1: BlindingFactor;
  readonly blind2: BlindingFactor;
}

/**
 * Σpositive − Σnegative for `BlindingFactor + BlindingFactor` and `sum_kernel_offsets`: zero and
 * invalid factors are dropped, no positive factor left gives zero (whatever the negatives), and
 * a zero result is an error (Epic converts it to a `SecretKey`).
 */
export function sumBlindingFactors(
  positive: readonly BlindingFactor[],
  negative: readonly BlindingFactor[],
): BlindingFactor {
  const raw = (fs: readonly BlindingFactor[]) => fs.map((f) => f.toBytes());
  return BlindingFactor.fromSecretKey(sumBlindingKeys(raw(positive), raw(negative)));
}

/** Epic's `committed::sum_kernel_offsets`. */
export function sumKernelOffsets(
  positive: readonly BlindingFactor[],
  negative: readonly BlindingFactor[],
): BlindingFactor {
  return sumBlindingFactors(positive, negative);
}

/** A key to derive: value (for the switch commitment), path and switch type. */
export interface ValueExtKeychainPath {
  readonly value: bigint;
  readonly path: ExtKeychainPath;
  readonly switchType: SwitchCommitmentType;
}

/** `Identifier::to_value_path`: the path of an id with the Regular switch type. */
export function valuePath(value: bigint, path: ExtKeychainPath): ValueExtKeychainPath {
  return { value, path, switchType: SwitchCommitmentType.Regular };
}

/** The inputs of `ExtKeychain.blindSum`; each `add…`/`sub…` returns a new sum. */
export class BlindSum {
  constructor(
    readonly positiveKeyIds: readonly ValueExtKeychainPath[] = [],
    readonly negativeKeyIds: readonly ValueExtKeychainPath[] = [],
    readonly positiveBlindingFactors: readonly BlindingFactor[] = [],
    readonly negativeBlindingFactors: readonly BlindingFactor[] = [],
  ) {}

  addKeyId(path: ValueExtKeychainPath): BlindSum {
    return new BlindSum(
      [...this.positiveKeyIds, path],
      this.negativeKeyIds,
      this.positiveBlindingFactors,
      this.negativeBlindingFactors,
    );
  }

  subKeyId(path: ValueExtKeychainPath): BlindSum {
    return new BlindSum(
      this.positiveKeyIds,
      [...this.negativeKeyIds, path],
      this.positiveBlindingFactors,
      this.negativeBlindingFactors,
    );
  }

  addBlindingFactor(blind: BlindingFactor): BlindSum {
    return new BlindSum(
      this.positiveKeyIds,
      this.negativeKeyIds,
      [...this.positiveBlindingFactors, blind],
      this.negativeBlindingFactors,
    );
  }

  subBlindingFactor(blind: BlindingFactor): BlindSum {
    return new BlindSum(this.positiveKeyIds, this.negativeKeyIds, this.positiveBlindingFactors, [
      ...this.negativeBlindingFactors,
      blind,
    ]);
  }
}
