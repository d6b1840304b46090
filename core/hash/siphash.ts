// Standard SipHash-2-4 (64-bit output), used for short ids. The Cuckoo variant differs and
// lives with the proof-of-work code.

const MASK = 0xffff_ffff_ffff_ffffn;

function rotl(x: bigint, b: bigint): bigint {
  return ((x << b) | (x >> (64n - b))) & MASK;
}

interface State {
  v0: bigint;
  v1: bigint;
  v2: bigint;
  v3: bigint;
}

function round(s: State): void {
  s.v0 = (s.v0 + s.v1) & MASK;
  s.v1 = rotl(s.v1, 13n) ^ s.v0;
  s.v0 = rotl(s.v0, 32n);
  s.v2 = (s.v2 + s.v3) & MASK;
  s.v3 = rotl(s.v3, 16n) ^ s.v2;
  s.v0 = (s.v0 + s.v3) & MASK;
  s.v3 = rotl(s.v3, 21n) ^ s.v0;
  s.v2 = (s.v2 + s.v1) & MASK;
  s.v1 = rotl(s.v1, 17n) ^ s.v2;
  s.v2 = rotl(s.v2, 32n);
}

function compress(s: State, m: bigint): void {
  s.v3 ^= m;
  round(s);
  round(s);
  s.v0 ^= m;
}

export function siphash24(k0: bigint, k1: bigint, msg: Uint8Array): bigint {
  const s: State = {
    v0: k0 ^ 0x736f6d6570736575n,
    v1: k1 ^ 0x646f72616e646f6dn,
    v2: k0 ^ 0x6c7967656e657261n,
    v3: k1 ^ 0x7465646279746573n,
  };
  const view = new DataView(msg.buffer, msg.byteOffset, msg.byteLength);
  const full = msg.length - (msg.length % 8);
  for (let i = 0; i < full; i += 8) compress(s, view.getBigUint64(i, true));
  let last = BigInt(msg.length & 0xff) << 56n;
  for (let i = full; i < msg.length; i++)
    last |= BigInt(msg[i] as number) << BigInt(8 * (i - full));
  compress(s, last);
  s.v2 ^= 0xffn;
  for (let i = 0; i < 4; i++) round(s);
  return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}
