// Keccak-f[1600] on 32-bit halves, and the one Keccak-512 shape ethash needs: a 64-byte node
// in, a 64-byte node out. Building an epoch cache hashes about a million nodes, so the permutation
// keeps all 25 lanes in locals (lo/hi pairs) instead of going through a generic sponge.

/** Round constants, low and high halves, derived from Keccak's LFSR rather than typed in. */
export const RC_LO = new Uint32Array(24);
export const RC_HI = new Uint32Array(24);

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
 * 2(x + 5y) + 1 (high half), i.e. the little-endian byte order of the Keccak state.
 */
export function keccakF1600(s: Uint32Array): void {
  let a00l = s[0] | 0;
  let a00h = s[1] | 0;
  let a10l = s[2] | 0;
  let a10h = s[3] | 0;
  let a20l = s[4] | 0;
  let a20h = s[5] | 0;
  let a30l = s[6] | 0;
  let a30h = s[7] | 0;
  let a40l = s[8] | 0;
  let a40h = s[9] | 0;
  let a01l = s[10] | 0;
  let a01h = s[11] | 0;
  let a11l = s[12] | 0;
  let a11h = s[13] | 0;
  let a21l = s[14] | 0;
  let a21h = s[15] | 0;
  let a31l = s[16] | 0;
  let a31h = s[17] | 0;
  let a41l = s[18] | 0;
  let a41h = s[19] | 0;
  let a02l = s[20] | 0;
  let a02h = s[21] | 0;
  let a12l = s[22] | 0;
  let a12h = s[23] | 0;
  let a22l = s[24] | 0;
  let a22h = s[25] | 0;
  let a32l = s[26] | 0;
  let a32h = s[27] | 0;
  let a42l = s[28] | 0;
  let a42h = s[29] | 0;
  let a03l = s[30] | 0;
  let a03h = s[31] | 0;
  let a13l = s[32] | 0;
  let a13h = s[33] | 0;
  let a23l = s[34] | 0;
  let a23h = s[35] | 0;
  let a33l = s[36] | 0;
  let a33h = s[37] | 0;
  let a43l = s[38] | 0;
  let a43h = s[39] | 0;
  let a04l = s[40] | 0;
  let a04h = s[41] | 0;
  let a14l = s[42] | 0;
  let a14h = s[43] | 0;
  let a24l = s[44] | 0;
  let a24h = s[45] | 0;
  let a34l = s[46] | 0;
  let a34h = s[47] | 0;
  let a44l = s[48] | 0;
  let a44h = s[49] | 0;
  let t0 = 0;
  let t1 = 0;
  for (let round = 0; round < 24; round++) {
    const c0l = a00l ^ a01l ^ a02l ^ a03l ^ a04l;
    const c0h = a00h ^ a01h ^ a02h ^ a03h ^ a04h;
    const c1l = a10l ^ a11l ^ a12l ^ a13l ^ a14l;
    const c1h = a10h ^ a11h ^ a12h ^ a13h ^ a14h;
    const c2l = a20l ^ a21l ^ a22l ^ a23l ^ a24l;
    const c2h = a20h ^ a21h ^ a22h ^ a23h ^ a24h;
    const c3l = a30l ^ a31l ^ a32l ^ a33l ^ a34l;
    const c3h = a30h ^ a31h ^ a32h ^ a33h ^ a34h;
    const c4l = a40l ^ a41l ^ a42l ^ a43l ^ a44l;
    const c4h = a40h ^ a41h ^ a42h ^ a43h ^ a44h;
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
    const b00l = a00l ^ d0l;
    const b00h = a00h ^ d0h;
    t0 = a01l ^ d0l;
    t1 = a01h ^ d0h;
    const b13l = (t1 << 4) | (t0 >>> 28);
    const b13h = (t0 << 4) | (t1 >>> 28);
    t0 = a02l ^ d0l;
    t1 = a02h ^ d0h;
    const b21l = (t0 << 3) | (t1 >>> 29);
    const b21h = (t1 << 3) | (t0 >>> 29);
    t0 = a03l ^ d0l;
    t1 = a03h ^ d0h;
    const b34l = (t1 << 9) | (t0 >>> 23);
    const b34h = (t0 << 9) | (t1 >>> 23);
    t0 = a04l ^ d0l;
    t1 = a04h ^ d0h;
    const b42l = (t0 << 18) | (t1 >>> 14);
    const b42h = (t1 << 18) | (t0 >>> 14);
    t0 = a10l ^ d1l;
    t1 = a10h ^ d1h;
    const b02l = (t0 << 1) | (t1 >>> 31);
    const b02h = (t1 << 1) | (t0 >>> 31);
    t0 = a11l ^ d1l;
    t1 = a11h ^ d1h;
    const b10l = (t1 << 12) | (t0 >>> 20);
    const b10h = (t0 << 12) | (t1 >>> 20);
    t0 = a12l ^ d1l;
    t1 = a12h ^ d1h;
    const b23l = (t0 << 10) | (t1 >>> 22);
    const b23h = (t1 << 10) | (t0 >>> 22);
    t0 = a13l ^ d1l;
    t1 = a13h ^ d1h;
    const b31l = (t1 << 13) | (t0 >>> 19);
    const b31h = (t0 << 13) | (t1 >>> 19);
    t0 = a14l ^ d1l;
    t1 = a14h ^ d1h;
    const b44l = (t0 << 2) | (t1 >>> 30);
    const b44h = (t1 << 2) | (t0 >>> 30);
    t0 = a20l ^ d2l;
    t1 = a20h ^ d2h;
    const b04l = (t1 << 30) | (t0 >>> 2);
    const b04h = (t0 << 30) | (t1 >>> 2);
    t0 = a21l ^ d2l;
    t1 = a21h ^ d2h;
    const b12l = (t0 << 6) | (t1 >>> 26);
    const b12h = (t1 << 6) | (t0 >>> 26);
    t0 = a22l ^ d2l;
    t1 = a22h ^ d2h;
    const b20l = (t1 << 11) | (t0 >>> 21);
    const b20h = (t0 << 11) | (t1 >>> 21);
    t0 = a23l ^ d2l;
    t1 = a23h ^ d2h;
    const b33l = (t0 << 15) | (t1 >>> 17);
    const b33h = (t1 << 15) | (t0 >>> 17);
    t0 = a24l ^ d2l;
    t1 = a24h ^ d2h;
    const b41l = (t1 << 29) | (t0 >>> 3);
    const b41h = (t0 << 29) | (t1 >>> 3);
    t0 = a30l ^ d3l;
    t1 = a30h ^ d3h;
    const b01l = (t0 << 28) | (t1 >>> 4);
    const b01h = (t1 << 28) | (t0 >>> 4);
    t0 = a31l ^ d3l;
    t1 = a31h ^ d3h;
    const b14l = (t1 << 23) | (t0 >>> 9);
    const b14h = (t0 << 23) | (t1 >>> 9);
    t0 = a32l ^ d3l;
    t1 = a32h ^ d3h;
    const b22l = (t0 << 25) | (t1 >>> 7);
    const b22h = (t1 << 25) | (t0 >>> 7);
    t0 = a33l ^ d3l;
    t1 = a33h ^ d3h;
    const b30l = (t0 << 21) | (t1 >>> 11);
    const b30h = (t1 << 21) | (t0 >>> 11);
    t0 = a34l ^ d3l;
    t1 = a34h ^ d3h;
    const b43l = (t1 << 24) | (t0 >>> 8);
    const b43h = (t0 << 24) | (t1 >>> 8);
    t0 = a40l ^ d4l;
    t1 = a40h ^ d4h;
    const b03l = (t0 << 27) | (t1 >>> 5);
    const b03h = (t1 << 27) | (t0 >>> 5);
    t0 = a41l ^ d4l;
    t1 = a41h ^ d4h;
    const b11l = (t0 << 20) | (t1 >>> 12);
    const b11h = (t1 << 20) | (t0 >>> 12);
    t0 = a42l ^ d4l;
    t1 = a42h ^ d4h;
    const b24l = (t1 << 7) | (t0 >>> 25);
    const b24h = (t0 << 7) | (t1 >>> 25);
    t0 = a43l ^ d4l;
    t1 = a43h ^ d4h;
    const b32l = (t0 << 8) | (t1 >>> 24);
    const b32h = (t1 << 8) | (t0 >>> 24);
    t0 = a44l ^ d4l;
    t1 = a44h ^ d4h;
    const b40l = (t0 << 14) | (t1 >>> 18);
    const b40h = (t1 << 14) | (t0 >>> 18);
    a00l = b00l ^ (~b10l & b20l);
    a00h = b00h ^ (~b10h & b20h);
    a10l = b10l ^ (~b20l & b30l);
    a10h = b10h ^ (~b20h & b30h);
    a20l = b20l ^ (~b30l & b40l);
    a20h = b20h ^ (~b30h & b40h);
    a30l = b30l ^ (~b40l & b00l);
    a30h = b30h ^ (~b40h & b00h);
    a40l = b40l ^ (~b00l & b10l);
    a40h = b40h ^ (~b00h & b10h);
    a01l = b01l ^ (~b11l & b21l);
    a01h = b01h ^ (~b11h & b21h);
    a11l = b11l ^ (~b21l & b31l);
    a11h = b11h ^ (~b21h & b31h);
    a21l = b21l ^ (~b31l & b41l);
    a21h = b21h ^ (~b31h & b41h);
    a31l = b31l ^ (~b41l & b01l);
    a31h = b31h ^ (~b41h & b01h);
    a41l = b41l ^ (~b01l & b11l);
    a41h = b41h ^ (~b01h & b11h);
    a02l = b02l ^ (~b12l & b22l);
    a02h = b02h ^ (~b12h & b22h);
    a12l = b12l ^ (~b22l & b32l);
    a12h = b12h ^ (~b22h & b32h);
    a22l = b22l ^ (~b32l & b42l);
    a22h = b22h ^ (~b32h & b42h);
    a32l = b32l ^ (~b42l & b02l);
    a32h = b32h ^ (~b42h & b02h);
    a42l = b42l ^ (~b02l & b12l);
    a42h = b42h ^ (~b02h & b12h);
    a03l = b03l ^ (~b13l & b23l);
    a03h = b03h ^ (~b13h & b23h);
    a13l = b13l ^ (~b23l & b33l);
    a13h = b13h ^ (~b23h & b33h);
    a23l = b23l ^ (~b33l & b43l);
    a23h = b23h ^ (~b33h & b43h);
    a33l = b33l ^ (~b43l & b03l);
    a33h = b33h ^ (~b43h & b03h);
    a43l = b43l ^ (~b03l & b13l);
    a43h = b43h ^ (~b03h & b13h);
    a04l = b04l ^ (~b14l & b24l);
    a04h = b04h ^ (~b14h & b24h);
    a14l = b14l ^ (~b24l & b34l);
    a14h = b14h ^ (~b24h & b34h);
    a24l = b24l ^ (~b34l & b44l);
    a24h = b24h ^ (~b34h & b44h);
    a34l = b34l ^ (~b44l & b04l);
    a34h = b34h ^ (~b44h & b04h);
    a44l = b44l ^ (~b04l & b14l);
    a44h = b44h ^ (~b04h & b14h);
    a00l ^= RC_LO[round];
    a00h ^= RC_HI[round];
  }
  s[0] = a00l;
  s[1] = a00h;
  s[2] = a10l;
  s[3] = a10h;
  s[4] = a20l;
  s[5] = a20h;
  s[6] = a30l;
  s[7] = a30h;
  s[8] = a40l;
  s[9] = a40h;
  s[10] = a01l;
  s[11] = a01h;
  s[12] = a11l;
  s[13] = a11h;
  s[14] = a21l;
  s[15] = a21h;
  s[16] = a31l;
  s[17] = a31h;
  s[18] = a41l;
  s[19] = a41h;
  s[20] = a02l;
  s[21] = a02h;
  s[22] = a12l;
  s[23] = a12h;
  s[24] = a22l;
  s[25] = a22h;
  s[26] = a32l;
  s[27] = a32h;
  s[28] = a42l;
  s[29] = a42h;
  s[30] = a03l;
  s[31] = a03h;
  s[32] = a13l;
  s[33] = a13h;
  s[34] = a23l;
  s[35] = a23h;
  s[36] = a33l;
  s[37] = a33h;
  s[38] = a43l;
  s[39] = a43h;
  s[40] = a04l;
  s[41] = a04h;
  s[42] = a14l;
  s[43] = a14h;
  s[44] = a24l;
  s[45] = a24h;
  s[46] = a34l;
  s[47] = a34h;
  s[48] = a44l;
  s[49] = a44h;
}

const sponge = new Uint32Array(50);

/**
 * Legacy Keccak-512 (pad byte 0x01, not SHA-3's 0x06) of the 16 words src[so..so+16) into
 * dst[dso..dso+16). One block: 64 message bytes fit in the 72-byte rate. src and dst may overlap.
 */
export function keccak512Node(src: Uint32Array, so: number, dst: Uint32Array, dso: number): void {
  for (let i = 0; i < 16; i++) sponge[i] = src[so + i];
  sponge.fill(0, 16);
  sponge[16] = 0x01;
  sponge[17] = 0x80000000;
  keccakF1600(sponge);
  for (let i = 0; i < 16; i++) dst[dso + i] = sponge[i];
}
