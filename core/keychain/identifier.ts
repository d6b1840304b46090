// Key identifiers: 17 bytes = depth (u8) ‖ four u32 big-endian path elements, unused ones zero.
// The wallet stores these (JSON `key_id`, 34 hex chars) instead of keys, and derives each key
// again from the master key by walking the first `depth` elements.

import { blake2b } from '@noble/hashes/blake2.js';
import { fromHex, toHex } from '../bytes.js';
import { KeychainError } from './errors.js';

export const IDENTIFIER_SIZE = 17;
/** Path elements an identifier can hold. */
export const MAX_PATH_DEPTH = 4;

type PathElements = readonly [number, number, number, number];

function checkU32(n: number): number {
  if (!Number.isInteger(n) || n < 0 || n > 0xffff_ffff) {
    throw new KeychainError('InvalidIdentifier', `path element out of range: ${n}`);
  }
  return n;
}

function checkDepth(depth: number): number {
  if (!Number.isInteger(depth) || depth < 0 || depth > 255) {
    throw new KeychainError('InvalidIdentifier', `depth out of range: ${depth}`);
  }
  return depth;
}

/**
 * Epic's `ExtKeychainPath`: a depth and four child numbers (u32, bit 31 = hardened). The depth
 * byte is kept as stored even above 4; such a path cannot be derived (see `derivationPath`).
 */
export class ExtKeychainPath {
  readonly depth: number;
  readonly path: PathElements;

  constructor(depth: number, d0 = 0, d1 = 0, d2 = 0, d3 = 0) {
    this.depth = checkDepth(depth);
    this.path = [checkU32(d0), checkU32(d1), checkU32(d2), checkU32(d3)];
  }

  static fromIdentifier(id: Identifier): ExtKeychainPath {
    const view = new DataView(id.bytes.buffer, id.bytes.byteOffset, IDENTIFIER_SIZE);
    const [a, b, c, d] = [1, 5, 9, 13].map((off) => view.getUint32(off));
    return new ExtKeychainPath(view.getUint8(0), a, b, c, d);
  }

  toIdentifier(): Identifier {
    const bytes = new Uint8Array(IDENTIFIER_SIZE);
    const view = new DataView(bytes.buffer);
    view.setUint8(0, this.depth);
    for (const [i, p] of this.path.entries()) view.setUint32(1 + 4 * i, p);
    return Identifier.fromBytes(bytes);
  }

  /** The child numbers to walk from the master key; refuses depths above 4 (Epic panics). */
  derivationPath(): number[] {
    if (this.depth > MAX_PATH_DEPTH) {
      throw new KeychainError('InvalidIdentifier', `path depth ${this.depth} exceeds 4`);
    }
    return this.path.slice(0, this.depth);
  }

  /** The wallet's `n_child`: the last used element, or 0 at the root. */
  lastPathIndex(): number {
    if (this.depth === 0) return 0;
    return this.derivationPath()[this.depth - 1] as number;
  }

  /** Same path with element `index` replaced. */
  withElement(index: number, value: number): ExtKeychainPath {
    const p = [...this.path];
    p[index] = value;
    return new ExtKeychainPath(this.depth, p[0], p[1], p[2], p[3]);
  }

  equals(other: ExtKeychainPath): boolean {
    return this.depth === other.depth && this.path.every((p, i) => p === other.path[i]);
  }
}

/** A 17-byte key identifier. Construction is lenient like Epic's: short input is zero-padded. */
export class Identifier {
  private constructor(readonly bytes: Uint8Array) {}

  static zero(): Identifier {
    return new Identifier(new Uint8Array(IDENTIFIER_SIZE));
  }

  /** First 17 bytes of the input, zero-padded when shorter (`Identifier::from_bytes`). */
  static fromBytes(bytes: Uint8Array): Identifier {
    const out = new Uint8Array(IDENTIFIER_SIZE);
    out.set(bytes.subarray(0, IDENTIFIER_SIZE));
    return new Identifier(out);
  }

  /** Lenient in length, strict in characters (where Epic would panic, this throws). */
  static fromHex(hex: string): Identifier {
    const bytes = fromHex(hex);
    if (bytes === null) throw new KeychainError('InvalidIdentifier', 'identifier is not hex');
    return Identifier.fromBytes(bytes);
  }

  static fromPath(path: ExtKeychainPath): Identifier {
    return path.toIdentifier();
  }

  /** `from_serialized_path`: a depth byte followed by the 16 path bytes. */
  static fromSerializedPath(depth: number, path16: Uint8Array): Identifier {
    if (path16.length < IDENTIFIER_SIZE - 1) {
      throw new KeychainError('InvalidIdentifier', 'serialized path shorter than 16 bytes');
    }
    const out = new Uint8Array(IDENTIFIER_SIZE);
    out[0] = checkDepth(depth);
    out.set(path16.subarray(0, IDENTIFIER_SIZE - 1), 1);
    return new Identifier(out);
  }

  /** Legacy helper: BLAKE2b with a 17-byte digest of a compressed public key. */
  static fromPubkey(publicKey: Uint8Array): Identifier {
    return new Identifier(blake2b(publicKey, { dkLen: IDENTIFIER_SIZE }));
  }

  toHex(): string {
    return toHex(this.bytes);
  }

  toString(): string {
    return this.toHex();
  }

  toBytes(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }

  toPath(): ExtKeychainPath {
    return ExtKeychainPath.fromIdentifier(this);
  }

  /** The 16 path bytes without the depth (`serialize_path`). */
  serializePath(): Uint8Array {
    return this.bytes.slice(1);
  }

  /** One level up: the last used element cleared and the depth lowered; the root stays root. */
  parentPath(): Identifier {
    const p = this.toPath();
    const depth = p.derivationPath().length;
    if (depth === 0) return Identifier.fromBytes(this.bytes);
    const cleared = p.withElement(depth - 1, 0);
    return new ExtKeychainPath(depth - 1, ...cleared.path).toIdentifier();
  }

  /** "m/0/0/1200": the first `depth` elements as raw u32 numbers (no ' for hardened ones). */
  toBip32String(): string {
    return ['m', ...this.toPath().derivationPath().map(String)].join('/');
  }

  equals(other: Identifier): boolean {
    return this.toHex() === other.toHex();
  }
}

/** The root identifier (depth 0): derives to the master key itself. */
export function rootKeyId(): Identifier {
  return Identifier.zero();
}

/** `Keychain::derive_key_id`. */
export function deriveKeyId(depth: number, d0 = 0, d1 = 0, d2 = 0, d3 = 0): Identifier {
  return new ExtKeychainPath(depth, d0, d1, d2, d3).toIdentifier();
}

/** The wallet's "default" account parent, m/0/0. */
export function defaultAccountId(): Identifier {
  return deriveKeyId(2, 0, 0, 0, 0);
}

/**
 * The parent of a new wallet account: the highest existing account path (by first element)
 * with its first element plus one (m/1/0, m/2/0, …), or m/0/0 when there is none.
 */
export function nextAccountId(existing: readonly Identifier[]): Identifier {
  if (existing.length === 0) return defaultAccountId();
  const highest = existing
    .map((id) => id.toPath())
    .reduce((a, b) => (b.path[0] > a.path[0] ? b : a));
  if (highest.path[0] === 0xffff_ffff) {
    throw new KeychainError('InvalidIdentifier', 'account index overflow');
  }
  return highest.withElement(0, highest.path[0] + 1).toIdentifier();
}

/** The wallet's `next_child`: one level below `parent`, with the given per-parent counter. */
export function childKeyId(parent: Identifier, index: number): Identifier {
  const p = parent.toPath();
  if (p.depth >= MAX_PATH_DEPTH) {
    throw new KeychainError('InvalidIdentifier', `cannot go below depth ${p.depth}`);
  }
  const child = new ExtKeychainPath(p.depth + 1, ...p.path);
  return child.withElement(p.depth, checkU32(index)).toIdentifier();
}
