// Inversion modulo a prime, single and batched, shared by the field (mod p) and the scalars
// (mod n). The extended Euclidean algorithm on bigints measures faster than Fermat's a^(m−2)
// for 256-bit moduli; batching (Montgomery's trick) turns k inversions into one plus 3(k−1)
// multiplications, which is what makes affine bucket sums and batch normalization pay.

/** a⁻¹ mod m for a prime m; a must be non-zero mod m (RangeError otherwise). */
export function invMod(a: bigint, m: bigint): bigint {
  let r0 = m;
  let r1 = a % m;
  if (r1 < 0n) r1 += m;
  if (r1 === 0n) throw new RangeError('zero has no inverse');
  let t0 = 0n;
  let t1 = 1n;
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [t0, t1] = [t1, t0 - q * t1];
  }
  return t0 < 0n ? t0 + m : t0;
}

/**
 * The inverses of all values (each non-zero) by Montgomery's trick: `mul` multiplies in the
 * ring, `inv` inverts one element. The empty list gives the empty list.
 */
export function batchInvert(
  values: readonly bigint[],
  mul: (a: bigint, b: bigint) => bigint,
  inv: (a: bigint) => bigint,
): bigint[] {
  const k = values.length;
  const out = new Array<bigint>(k);
  if (k === 0) return out;
  let acc = 1n;
  for (let i = 0; i < k; i++) {
    out[i] = acc;
    acc = mul(acc, values[i] as bigint);
  }
  let rest = inv(acc);
  for (let i = k - 1; i >= 0; i--) {
    const v = values[i] as bigint;
    out[i] = mul(rest, out[i] as bigint);
    rest = mul(rest, v);
  }
  return out;
}
