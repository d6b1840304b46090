// Keccak-f[800] and the ProgPoW 0.9.2 "keccak_f800_progpow" compression that seeds the mix and
// produces the final hash. Called twice per hash, so clarity wins over unrolling here.

import { RC_LO } from './keccak_f1600.js';
import { F800_ROUNDS } from './params.js';

// Keccak rho offsets by lane index x + 5y, taken mod 32 for 32-bit lanes.
const RHO = [
  0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14,
].map((r) => r % 32);

// pi moves lane (x, y) to (y, 2x + 3y); as flat indices.
const PI = Array.from({ length: 25 }, (_, i) => {
  const x = i % 5;
  const y = (i / 5) | 0;
  return y + 5 * ((2 * x + 3 * y) % 5);
});

const rotl = (v: number, r: number): number => (r === 0 ? v : (v << r) | (v >>> (32 - r)));

const c = new Uint32Array(5);
const b = new Uint32Array(25);

/** Keccak-f[800] reduced to `rounds` rounds (ProgPoW uses 22), iota from round 0 upwards. */
export function keccakF800(s: Uint32Array, rounds: number = F800_ROUNDS): void {
  for (let round = 0; round < rounds; round++) {
    for (let x = 0; x < 5; x++) c[x] = s[x] ^ s[x + 5] ^ s[x + 10] ^ s[x + 15] ^ s[x + 20];
    for (let x = 0; x < 5; x++) {
      const d = c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1);
      for (let y = 0; y < 25; y += 5) s[x + y] ^= d;
    }
    for (let i = 0; i < 25; i++) b[PI[i]] = rotl(s[i], RHO[i]);
    for (let y = 0; y < 25; y += 5) {
      for (let x = 0; x < 5; x++) {
        s[x + y] = b[x + y] ^ (~b[((x + 1) % 5) + y] & b[((x + 2) % 5) + y]);
      }
    }
    s[0] ^= RC_LO[round];
  }
}

/**
 * The 0.9.2 absorb: no sponge and no padding. The 25-word state is the header hash (8 LE words),
 * a 64-bit value as (low word, high word), the 8-word digest (zeros for the seed pass), and 7
 * zero words; then 22 rounds. Returns the whole state; callers read words 0..7.
 */
export function progpowKeccak(
  headerWords: Uint32Array,
  lo: number,
  hi: number,
  digest: Uint32Array | null,
): Uint32Array {
  const s = new Uint32Array(25);
  s.set(headerWords.subarray(0, 8), 0);
  s[8] = lo;
  s[9] = hi;
  if (digest !== null) s.set(digest.subarray(0, 8), 10);
  keccakF800(s);
  return s;
}
