// Wire format of the per-algorithm maps, the four proof variants and ProofOfWork.
import type { Difficulty, Policy, PowAlgo, Proof, ProofOfWork } from '../types/pow.js';
import { POW_ALGOS } from '../types/pow.js';
import { SerError } from './errors.js';
import type { Reader } from './reader.js';
import type { Writer } from './writer.js';

export const POW_HASH_SIZE = 32;
export const SEED_SIZE = 32;

function readAlgo(r: Reader, what: string): PowAlgo {
  const id = r.u8(what);
  const algo = POW_ALGOS[id];
  if (algo === undefined)
    throw new SerError('CorruptedData', `${what}: unknown algorithm id ${id}`);
  return algo;
}

/** Entries in any order; a repeated algorithm overwrites the earlier value (as Epic's map). */
export function readDifficulty(r: Reader): Difficulty {
  const count = r.u64('difficulty entry count');
  const out: { [A in PowAlgo]?: bigint } = {};
  for (let i = 0n; i < count; i++) {
    const algo = readAlgo(r, 'difficulty algorithm');
    out[algo] = r.u64(`${algo} difficulty`);
  }
  return canonical(out);
}

/** Re-keys a map in type-id order, which is also the JSON and wire order. */
function canonical<V>(m: { [A in PowAlgo]?: V }): { [A in PowAlgo]?: V } {
  const out: { [A in PowAlgo]?: V } = {};
  for (const a of POW_ALGOS) if (m[a] !== undefined) out[a] = m[a];
  return out;
}

export function writeDifficulty(w: Writer, d: Difficulty): void {
  const present = POW_ALGOS.filter((a) => d[a] !== undefined);
  w.u64n(present.length);
  for (const a of present) {
    w.u8(POW_ALGOS.indexOf(a));
    w.u64(d[a] as bigint);
  }
}

export function readPolicy(r: Reader): Policy {
  const count = r.u64('bottles entry count');
  const out: { [A in PowAlgo]?: number } = {};
  for (let i = 0n; i < count; i++) {
    const algo = readAlgo(r, 'bottles algorithm');
    out[algo] = r.u32(`${algo} bottles`);
  }
  return canonical(out);
}

export function writePolicy(w: Writer, p: Policy): void {
  const present = POW_ALGOS.filter((a) => p[a] !== undefined);
  w.u64n(present.length);
  for (const a of present) {
    w.u8(POW_ALGOS.indexOf(a));
    w.u32(p[a] as number);
  }
}

/** Bytes of `count` nonces of `edgeBits` bits each, packed LSB-first. */
export function packedNonceBytes(edgeBits: number, count: number): number {
  return Math.ceil((edgeBits * count) / 8);
}

function packNonces(w: Writer, edgeBits: number, nonces: readonly bigint[]): void {
  const count = w.params.proofSize;
  if (nonces.length > count)
    throw new SerError(
      'CorruptedData',
      `${nonces.length} cuckoo nonces, the chain's proof size is ${count}`,
    );
  const bits = new Uint8Array(packedNonceBytes(edgeBits, count));
  nonces.forEach((nonce, i) => {
    const lo = Number(nonce & 0xffff_ffffn);
    const hi = Number((nonce >> 32n) & 0xffff_ffffn);
    for (let b = 0; b < edgeBits; b++) {
      const set = b < 32 ? (lo >>> b) & 1 : (hi >>> (b - 32)) & 1;
      if (set) {
        const p = i * edgeBits + b;
        bits[p >> 3] = (bits[p >> 3] as number) | (1 << (p & 7));
      }
    }
  });
  w.fixed(bits);
}

function unpackNonces(r: Reader, edgeBits: number): bigint[] {
  const count = r.params.proofSize;
  const total = edgeBits * count;
  const bits = r.fixed(packedNonceBytes(edgeBits, count), 'cuckoo nonces');
  const bit = (p: number): number => ((bits[p >> 3] as number) >> (p & 7)) & 1;
  const nonces: bigint[] = [];
  for (let i = 0; i < count; i++) {
    let lo = 0;
    let hi = 0;
    for (let b = 0; b < edgeBits; b++) {
      if (bit(i * edgeBits + b)) {
        if (b < 32) lo |= 1 << b;
        else hi |= 1 << (b - 32);
      }
    }
    nonces.push((BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0));
  }
  // Unused high bits of the last byte must be zero, so one proof has one encoding.
  for (let p = total; p < bits.length * 8; p++) {
    if (bit(p)) throw new SerError('CorruptedData', 'cuckoo proof padding bits are not zero');
  }
  return nonces;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const utf8Encoder = new TextEncoder();

export function readProof(r: Reader): Proof {
  const tag = r.u8('proof type');
  switch (tag) {
    case 0: {
      const edgeBits = r.u8('cuckoo edge bits');
      if (edgeBits === 0 || edgeBits > 64)
        throw new SerError('CorruptedData', `cuckoo edge bits ${edgeBits} outside 1..64`);
      return { kind: 'Cuckoo', edgeBits, nonces: unpackNonces(r, edgeBits) };
    }
    case 1: {
      const edgeBits = r.u8('md5 edge bits');
      const raw = r.lenPrefixed('md5 proof');
      let proof: string;
      try {
        proof = utf8.decode(raw);
      } catch {
        throw new SerError('CorruptedData', 'md5 proof is not UTF-8');
      }
      return { kind: 'MD5', edgeBits, proof };
    }
    case 2:
      return { kind: 'RandomX', hash: r.fixed(POW_HASH_SIZE, 'randomx hash') };
    case 3:
      return { kind: 'ProgPow', mix: r.fixed(POW_HASH_SIZE, 'progpow mix') };
    default:
      throw new SerError('CorruptedData', `unknown proof type ${tag}`);
  }
}

/** The tag byte is always written; hash mode leaves out a Cuckoo proof's edge bits. */
export function writeProof(w: Writer, p: Proof): void {
  switch (p.kind) {
    case 'Cuckoo':
      w.u8(0);
      if (w.mode !== 'hash') w.u8(p.edgeBits);
      packNonces(w, p.edgeBits, p.nonces);
      return;
    case 'MD5':
      w.u8(1);
      w.u8(p.edgeBits);
      w.lenPrefixed(utf8Encoder.encode(p.proof));
      return;
    case 'RandomX':
      w.u8(2);
      w.fixed(p.hash);
      return;
    case 'ProgPow':
      w.u8(3);
      w.fixed(p.mix);
      return;
  }
}

export function readProofOfWork(r: Reader): ProofOfWork {
  const totalDifficulty = readDifficulty(r);
  const secondaryScaling = r.u32('secondary scaling');
  const nonce = r.u64('pow nonce');
  const proof = readProof(r);
  return {
    totalDifficulty,
    secondaryScaling,
    nonce,
    proof,
    seed: r.fixed(SEED_SIZE, 'randomx seed'),
  };
}

/** Full mode: difficulty, scaling, nonce, proof, seed. Hash mode: proof and seed only. */
export function writeProofOfWork(w: Writer, pow: ProofOfWork): void {
  if (w.mode !== 'hash') {
    writeDifficulty(w, pow.totalDifficulty);
    w.u32(pow.secondaryScaling);
    w.u64(pow.nonce);
  }
  writeProof(w, pow.proof);
  w.fixed(pow.seed);
}
