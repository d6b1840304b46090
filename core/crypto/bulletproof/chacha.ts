// scalar_chacha20: two scalars drawn from one ChaCha20 block keyed by a 32-byte nonce, as the
// secp256k1-zkp prover derives its blinding values. Word 15 of the input counts retries, which
// only happen when a 256-bit half of the block is not below the group order.
import { CURVE_N } from '../curve.js';

const state = new Uint32Array(16);
const work = new Uint32Array(16);
const out = new Uint8Array(64);
const outView = new DataView(out.buffer);

function rotl(x: number, c: number): number {
  return (x << c) | (x >>> (32 - c));
}

function quarter(a: number, b: number, c: number, d: number): void {
  const x = work;
  x[a] = (x[a] as number) + (x[b] as number);
  x[d] = rotl((x[d] as number) ^ (x[a] as number), 16);
  x[c] = (x[c] as number) + (x[d] as number);
  x[b] = rotl((x[b] as number) ^ (x[c] as number), 12);
  x[a] = (x[a] as number) + (x[b] as number);
  x[d] = rotl((x[d] as number) ^ (x[a] as number), 8);
  x[c] = (x[c] as number) + (x[d] as number);
  x[b] = rotl((x[b] as number) ^ (x[c] as number), 7);
}

/** One ChaCha20 block (20 rounds with the feed-forward) of `state`, written into `out`. */
function block(): void {
  work.set(state);
  for (let r = 0; r < 10; r++) {
    quarter(0, 4, 8, 12);
    quarter(1, 5, 9, 13);
    quarter(2, 6, 10, 14);
    quarter(3, 7, 11, 15);
    quarter(0, 5, 10, 15);
    quarter(1, 6, 11, 12);
    quarter(2, 7, 8, 13);
    quarter(3, 4, 9, 14);
  }
  for (let i = 0; i < 16; i++)
    outView.setUint32(4 * i, (work[i] as number) + (state[i] as number), true);
}

/** Big-endian integer of out[from..from+32]. */
function readScalar(from: number): bigint {
  let r = 0n;
  for (let i = 0; i < 4; i++) r = (r << 64n) | outView.getBigUint64(from + 8 * i, false);
  return r;
}

/** The pair of scalars number `idx` of the stream keyed by `seed` (32 bytes). */
export function scalarChacha20(seed: Uint8Array, idx: number): [bigint, bigint] {
  if (seed.length !== 32) throw new RangeError('chacha seed must be 32 bytes');
  const keyView = new DataView(seed.buffer, seed.byteOffset, 32);
  // "expand 32-byte k"
  state[0] = 0x61707865;
  state[1] = 0x3320646e;
  state[2] = 0x79622d32;
  state[3] = 0x6b206574;
  for (let i = 0; i < 8; i++) state[4 + i] = keyView.getUint32(4 * i, true);
  state[12] = idx >>> 0;
  state[13] = Math.floor(idx / 0x1_0000_0000);
  state[14] = 0;
  for (let retry = 0; ; retry++) {
    state[15] = retry;
    block();
    const r1 = readScalar(0);
    const r2 = readScalar(32);
    if (r1 < CURVE_N && r2 < CURVE_N) return [r1, r2];
  }
}
