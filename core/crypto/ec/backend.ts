// An optional native seam for the hot public-data arithmetic: square roots (point decoding) and
// multi-scalar multiplications. core stays pure: nothing here loads native code. A host (pool
// workers via jobs/secp_addon.ts) installs a backend with `setMsmBackend`; until then, and
// whenever it is removed, every caller uses the JavaScript arithmetic of this folder, which
// gives the same answers. Everything crosses as flat byte arrays (no per-point objects).
//
// Encodings of `encoded` entries, 33 bytes each: 02/03 + x (y even / odd), 08/09 + x (y a
// square / not a square: commitments and bulletproof points with their flag). Scalars are 32
// bytes big-endian; values ≥ n are reduced mod n by the backend.

/** What a native backend provides (native/secp256k1/src/addon.cc). */
export interface MsmBackend {
  /** Decodes k×33-byte encodings into k×64-byte x‖y; −1 if all decode, else the first bad index. */
  decode(encoded: Uint8Array, out: Uint8Array): number;
  /** Writes the square root of a 32-byte field element that is itself a square; false if none. */
  sqrt(a: Uint8Array, out: Uint8Array): boolean;
  /**
   * Σ s·P over m affine points (x‖y) and k encoded points: 1 when the sum is infinity, 0 when
   * not (then `out`, if given, gets its x‖y), −1−i when point i is bad (encoded ones first).
   */
  msm(
    affine: Uint8Array,
    affineScalars: Uint8Array,
    encoded: Uint8Array,
    encodedScalars: Uint8Array,
    out: Uint8Array | null,
  ): number;
  /**
   * The batch equation of k 64-bit bulletproofs: `records` k×18 scalars (bulletproof/batch.ts
   * writes them), `points` k×15 x‖y, `generators` the 130 fixed ones. 1 when all verify, 0 when
   * not, negative for a point off the curve or a zero challenge.
   */
  bulletproofBatch(records: Uint8Array, points: Uint8Array, generators: Uint8Array): number;
}

let installed: MsmBackend | null = null;

/** Installs (or, with null, removes) the backend for this thread. */
export function setMsmBackend(backend: MsmBackend | null): void {
  installed = backend;
}

/** The installed backend, or null when the JavaScript path is in use. */
export function msmBackend(): MsmBackend | null {
  return installed;
}

const MASK64 = 0xffffffffffffffffn;

/** Writes 0 ≤ v < 2^256 as 32 big-endian bytes (the caller reduces first). */
export function writeScalar(view: DataView, offset: number, v: bigint): void {
  view.setBigUint64(offset, (v >> 192n) & MASK64);
  view.setBigUint64(offset + 8, (v >> 128n) & MASK64);
  view.setBigUint64(offset + 16, (v >> 64n) & MASK64);
  view.setBigUint64(offset + 24, v & MASK64);
}

/** Reads 32 big-endian bytes. */
export function readScalar(view: DataView, offset: number): bigint {
  return (
    (view.getBigUint64(offset) << 192n) |
    (view.getBigUint64(offset + 8) << 128n) |
    (view.getBigUint64(offset + 16) << 64n) |
    view.getBigUint64(offset + 24)
  );
}

/** A growable flat buffer of fixed-size records. */
class Records {
  bytes: Uint8Array;
  view: DataView;
  count = 0;
  constructor(
    readonly size: number,
    capacity: number,
  ) {
    this.bytes = new Uint8Array(size * Math.max(capacity, 1));
    this.view = new DataView(this.bytes.buffer);
  }
  /** Offset of a new record, growing the buffer when full (so read `bytes`/`view` after). */
  next(): number {
    if ((this.count + 1) * this.size > this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
      this.view = new DataView(grown.buffer);
    }
    return this.count++ * this.size;
  }
  filled(): Uint8Array {
    return this.bytes.subarray(0, this.count * this.size);
  }
}

/** Terms of one multi-scalar multiplication, gathered as bytes for the backend. */
export class MsmTerms {
  private readonly affine: Records;
  private readonly affineScalars: Records;
  private readonly encoded: Records;
  private readonly encodedScalars: Records;

  constructor(expected = 16) {
    this.affine = new Records(64, expected);
    this.affineScalars = new Records(32, expected);
    this.encoded = new Records(33, expected);
    this.encodedScalars = new Records(32, expected);
  }

  private scalar(records: Records, s: bigint): void {
    if (s < 0n || s >> 256n !== 0n) throw new RangeError('scalar outside [0, 2^256)');
    const at = records.next();
    writeScalar(records.view, at, s);
  }

  /** Adds s·(x, y); x, y in [0, p), s in [0, 2^256). */
  addAffine(x: bigint, y: bigint, s: bigint): void {
    const at = this.affine.next();
    writeScalar(this.affine.view, at, x);
    writeScalar(this.affine.view, at + 32, y);
    this.scalar(this.affineScalars, s);
  }

  /** Adds s·P for P as 64 bytes x‖y at `bytes[offset..]`. */
  addAffineBytes(bytes: Uint8Array, offset: number, s: bigint): void {
    const at = this.affine.next(); // may replace the buffer: take the offset first
    this.affine.bytes.set(bytes.subarray(offset, offset + 64), at);
    this.scalar(this.affineScalars, s);
  }

  /** Adds s·P for P given by its tag (02/03/08/09) and the 32-byte x at `bytes[offset..]`. */
  addEncoded(tag: number, bytes: Uint8Array, offset: number, s: bigint): void {
    const at = this.encoded.next();
    this.encoded.bytes[at] = tag;
    this.encoded.bytes.set(bytes.subarray(offset, offset + 32), at + 1);
    this.scalar(this.encodedScalars, s);
  }

  /** Number of encoded points so far (the index the next one will get). */
  get encodedCount(): number {
    return this.encoded.count;
  }

  /** Backend verdict: 1 infinity, 0 not, −1−i bad point i (see MsmBackend.msm). */
  evaluate(backend: MsmBackend, out: Uint8Array | null = null): number {
    return backend.msm(
      this.affine.filled(),
      this.affineScalars.filled(),
      this.encoded.filled(),
      this.encodedScalars.filled(),
      out,
    );
  }
}
