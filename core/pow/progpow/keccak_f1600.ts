// Keccak-f[1600] on 32-bit halves, and the one Keccak-512 shape ethash needs: a 64-byte node
// in, a 64-byte node out. Building an epoch cache hashes about a million nodes, so the permutation
// is fully unrolled within a round (lo/hi pairs, int32 so V8 never boxes a lane) and the node hash
// skips the generic sponge.

/** Round constants, low and high halves, derived from Keccak's LFSR rather than typed in. */
export const RC_LO = new Int32Array(24);
export const RC_HI = new Int32Array(24);

function deriveRoundConstants(): void {
  let r = 1;
  for (let i = 0; i < 24; i++) {
    for (let j = 0; j < 7; j++) {
      const bit = (1 << j) - 1;
      if (r & 1) {
        if (bit < 32) RC_LO[i] = RC_LO[i] | (1 << bit);
        else RC_HI[i] = RC_HI[i] | (1 << (bit - 32));
      }
      r = r & 0x80 ? ((r << 1) ^ 0x71) & 0xff : r << 1;
    }
  }
}
deriveRoundConstants();

/**
 * The 24-round permutation in place. Lane (x, y) lives at words 2(x + 5y) (low half) and
 * 2(x + 5y) + 1 (high half), i.e. the little-endian byte order of the Keccak state. Each round
 * reads the state once and writes it once; measured faster in V8 than carrying 50 locals.
 */
export function keccakF1600(s: Int32Array): void {
  for (let round = 0; round < 24; round++) {
    const c0l = s[0] ^ s[10] ^ s[20] ^ s[30] ^ s[40];
    const c0h = s[1] ^ s[11] ^ s[21] ^ s[31] ^ s[41];
    const c1l = s[2] ^ s[12] ^ s[22] ^ s[32] ^ s[42];
    const c1h = s[3] ^ s[13] ^ s[23] ^ s[33] ^ s[43];
    const c2l = s[4] ^ s[14] ^ s[24] ^ s[34] ^ s[44];
    const c2h = s[5] ^ s[15] ^ s[25] ^ s[35] ^ s[45];
    const c3l = s[6] ^ s[16] ^ s[26] ^ s[36] ^ s[46];
    const c3h = s[7] ^ s[17] ^ s[27] ^ s[37] ^ s[47];
    const c4l = s[8] ^ s[18] ^ s[28] ^ s[38] ^ s[48];
    const c4h = s[9] ^ s[19] ^ s[29] ^ s[39] ^ s[49];
    const d0l = c4l ^ ((c1l << 1) | (c1h >>> 31));
    const d0h = c4h ^ ((c1h << 1) | (c1l >>> 31));
    const d1l = c0l ^ ((c2l << 1) | (c2h >>> 31));
    const d1h = c0h ^ ((c2h << 1) | (c2l >>> 31));
    const d2l = c1l ^ ((c3l << 1) | (c3h >>> 31));
    const d2h = c1h ^ ((c3h << 1) | (c3l >>> 31));
    const d3l = c2l ^ ((c4l << 1) | (c4h >>> 31));
    const d3h = c2h ^ ((c4h << 1) | (c4l >>> 31));
    const d4l = c3l ^ ((c0l << 1) | (c0h >>> 31));
    const d4h = c3h ^ ((c0h << 1) | (c0l >>> 31));
    const b00l = s[0] ^ d0l;
    const b00h = s[1] ^ d0h;
    const t01l = s[10] ^ d0l;
    const t01h = s[11] ^ d0h;
    const b13l = (t01h << 4) | (t01l >>> 28);
    const b13h = (t01l << 4) | (t01h >>> 28);
    const t02l = s[20] ^ d0l;
    const t02h = s[21] ^ d0h;
    const b21l = (t02l << 3) | (t02h >>> 29);
    const b21h = (t02h << 3) | (t02l >>> 29);
    const t03l = s[30] ^ d0l;
    const t03h = s[31] ^ d0h;
    const b34l = (t03h << 9) | (t03l >>> 23);
    const b34h = (t03l << 9) | (t03h >>> 23);
    const t04l = s[40] ^ d0l;
    const t04h = s[41] ^ d0h;
    const b42l = (t04l << 18) | (t04h >>> 14);
    const b42h = (t04h << 18) | (t04l >>> 14);
    const t10l = s[2] ^ d1l;
    const t10h = s[3] ^ d1h;
    const b02l = (t10l << 1) | (t10h >>> 31);
    const b02h = (t10h << 1) | (t10l >>> 31);
    const t11l = s[12] ^ d1l;
    const t11h = s[13] ^ d1h;
    const b10l = (t11h << 12) | (t11l >>> 20);
    const b10h = (t11l << 12) | (t11h >>> 20);
    const t12l = s[22] ^ d1l;
    const t12h = s[23] ^ d1h;
    const b23l = (t12l << 10) | (t12h >>> 22);
    const b23h = (t12h << 10) | (t12l >>> 22);
    const t13l = s[32] ^ d1l;
    const t13h = s[33] ^ d1h;
    const b31l = (t13h << 13) | (t13l >>> 19);
    const b31h = (t13l << 13) | (t13h >>> 19);
    const t14l = s[42] ^ d1l;
    const t14h = s[43] ^ d1h;
    const b44l = (t14l << 2) | (t14h >>> 30);
    const b44h = (t14h << 2) | (t14l >>> 30);
    const t20l = s[4] ^ d2l;
    const t20h = s[5] ^ d2h;
    const b04l = (t20h << 30) | (t20l >>> 2);
    const b04h = (t20l << 30) | (t20h >>> 2);
    const t21l = s[14] ^ d2l;
    const t21h = s[15] ^ d2h;
    const b12l = (t21l << 6) | (t21h >>> 26);
    const b12h = (t21h << 6) | (t21l >>> 26);
    const t22l = s[24] ^ d2l;
    const t22h = s[25] ^ d2h;
    const b20l = (t22h << 11) | (t22l >>> 21);
    const b20h = (t22l << 11) | (t22h >>> 21);
    const t23l = s[34] ^ d2l;
    const t23h = s[35] ^ d2h;
    const b33l = (t23l << 15) | (t23h >>> 17);
    const b33h = (t23h << 15) | (t23l >>> 17);
    const t24l = s[44] ^ d2l;
    const t24h = s[45] ^ d2h;
    const b41l = (t24h << 29) | (t24l >>> 3);
    const b41h = (t24l << 29) | (t24h >>> 3);
    const t30l = s[6] ^ d3l;
    const t30h = s[7] ^ d3h;
    const b01l = (t30l << 28) | (t30h >>> 4);
    const b01h = (t30h << 28) | (t30l >>> 4);
    const t31l = s[16] ^ d3l;
    const t31h = s[17] ^ d3h;
    const b14l = (t31h << 23) | (t31l >>> 9);
    const b14h = (t31l << 23) | (t31h >>> 9);
    const t32l = s[26] ^ d3l;
    const t32h = s[27] ^ d3h;
    const b22l = (t32l << 25) | (t32h >>> 7);
    const b22h = (t32h << 25) | (t32l >>> 7);
    const t33l = s[36] ^ d3l;
    const t33h = s[37] ^ d3h;
    const b30l = (t33l << 21) | (t33h >>> 11);
    const b30h = (t33h << 21) | (t33l >>> 11);
    const t34l = s[46] ^ d3l;
    const t34h = s[47] ^ d3h;
    const b43l = (t34h << 24) | (t34l >>> 8);
    const b43h = (t34l << 24) | (t34h >>> 8);
    const t40l = s[8] ^ d4l;
    const t40h = s[9] ^ d4h;
    const b03l = (t40l << 27) | (t40h >>> 5);
    const b03h = (t40h << 27) | (t40l >>> 5);
    const t41l = s[18] ^ d4l;
    const t41h = s[19] ^ d4h;
    const b11l = (t41l << 20) | (t41h >>> 12);
    const b11h = (t41h << 20) | (t41l >>> 12);
    const t42l = s[28] ^ d4l;
    const t42h = s[29] ^ d4h;
    const b24l = (t42h << 7) | (t42l >>> 25);
    const b24h = (t42l << 7) | (t42h >>> 25);
    const t43l = s[38] ^ d4l;
    const t43h = s[39] ^ d4h;
    const b32l = (t43l << 8) | (t43h >>> 24);
    const b32h = (t43h << 8) | (t43l >>> 24);
    const t44l = s[48] ^ d4l;
    const t44h = s[49] ^ d4h;
    const b40l = (t44l << 14) | (t44h >>> 18);
    const b40h = (t44h << 14) | (t44l >>> 18);
    s[0] = b00l ^ (~b10l & b20l);
    s[1] = b00h ^ (~b10h & b20h);
    s[2] = b10l ^ (~b20l & b30l);
    s[3] = b10h ^ (~b20h & b30h);
    s[4] = b20l ^ (~b30l & b40l);
    s[5] = b20h ^ (~b30h & b40h);
    s[6] = b30l ^ (~b40l & b00l);
    s[7] = b30h ^ (~b40h & b00h);
    s[8] = b40l ^ (~b00l & b10l);
    s[9] = b40h ^ (~b00h & b10h);
    s[10] = b01l ^ (~b11l & b21l);
    s[11] = b01h ^ (~b11h & b21h);
    s[12] = b11l ^ (~b21l & b31l);
    s[13] = b11h ^ (~b21h & b31h);
    s[14] = b21l ^ (~b31l & b41l);
    s[15] = b21h ^ (~b31h & b41h);
    s[16] = b31l ^ (~b41l & b01l);
    s[17] = b31h ^ (~b41h & b01h);
    s[18] = b41l ^ (~b01l & b11l);
    s[19] = b41h ^ (~b01h & b11h);
    s[20] = b02l ^ (~b12l & b22l);
    s[21] = b02h ^ (~b12h & b22h);
    s[22] = b12l ^ (~b22l & b32l);
    s[23] = b12h ^ (~b22h & b32h);
    s[24] = b22l ^ (~b32l & b42l);
    s[25] = b22h ^ (~b32h & b42h);
    s[26] = b32l ^ (~b42l & b02l);
    s[27] = b32h ^ (~b42h & b02h);
    s[28] = b42l ^ (~b02l & b12l);
    s[29] = b42h ^ (~b02h & b12h);
    s[30] = b03l ^ (~b13l & b23l);
    s[31] = b03h ^ (~b13h & b23h);
    s[32] = b13l ^ (~b23l & b33l);
    s[33] = b13h ^ (~b23h & b33h);
    s[34] = b23l ^ (~b33l & b43l);
    s[35] = b23h ^ (~b33h & b43h);
    s[36] = b33l ^ (~b43l & b03l);
    s[37] = b33h ^ (~b43h & b03h);
    s[38] = b43l ^ (~b03l & b13l);
    s[39] = b43h ^ (~b03h & b13h);
    s[40] = b04l ^ (~b14l & b24l);
    s[41] = b04h ^ (~b14h & b24h);
    s[42] = b14l ^ (~b24l & b34l);
    s[43] = b14h ^ (~b24h & b34h);
    s[44] = b24l ^ (~b34l & b44l);
    s[45] = b24h ^ (~b34h & b44h);
    s[46] = b34l ^ (~b44l & b04l);
    s[47] = b34h ^ (~b44h & b04h);
    s[48] = b44l ^ (~b04l & b14l);
    s[49] = b44h ^ (~b04h & b14h);
    s[0] ^= RC_LO[round];
    s[1] ^= RC_HI[round];
  }
}

const sponge = new Int32Array(50);

/**
 * Legacy Keccak-512 (pad byte 0x01, not SHA-3's 0x06) of the 16 words src[so..so+16) into
 * dst[dso..dso+16). One block: 64 message bytes fit in the 72-byte rate. src and dst may overlap.
 */
export function keccak512Node(src: Uint32Array, so: number, dst: Uint32Array, dso: number): void {
  for (let i = 0; i < 16; i++) sponge[i] = src[so + i];
  sponge.fill(0, 16);
  sponge[16] = 0x01;
  sponge[17] = 0x80000000 | 0;
  keccakF1600(sponge);
  for (let i = 0; i < 16; i++) dst[dso + i] = sponge[i];
}
