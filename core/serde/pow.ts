// serde forms of the per-algorithm maps, proofs and ProofOfWork.
import type { JsonValue } from '../json/value.js';
import type { Difficulty, Policy, PowAlgo, Proof, ProofOfWork } from '../types/pow.js';
import { POW_ALGOS } from '../types/pow.js';
import {
  asArray,
  asByteArray,
  asObject,
  asString,
  asTagged,
  asU64,
  asUint,
  byteArray,
  field,
  JsonFormError,
  sub,
} from './fields.js';

/** Keys in type-id order, which is how Epic's `Difficulty` serializes. */
function mapToJson<V extends bigint | number>(m: { readonly [A in PowAlgo]?: V }): JsonValue {
  const out: { [key: string]: JsonValue } = {};
  for (const a of POW_ALGOS) {
    const v = m[a];
    if (v !== undefined) out[a] = v;
  }
  return out;
}

function mapFromJson<V>(
  v: unknown,
  path: string,
  value: (x: unknown, p: string) => V,
): { [A in PowAlgo]?: V } {
  const o = asObject(v, path);
  const out: { [A in PowAlgo]?: V } = {};
  for (const key of Object.keys(o)) {
    if (!(POW_ALGOS as readonly string[]).includes(key)) {
      throw new JsonFormError(
        sub(path, key),
        `unknown variant \`${key}\`, expected one of ${POW_ALGOS.join(', ')}`,
      );
    }
  }
  for (const a of POW_ALGOS) if (Object.hasOwn(o, a)) out[a] = value(o[a], sub(path, a));
  return out;
}

export function difficultyToJson(d: Difficulty): JsonValue {
  return mapToJson(d);
}

export function difficultyFromJson(v: unknown, path: string): Difficulty {
  return mapFromJson(v, path, asU64);
}

export function policyToJson(p: Policy): JsonValue {
  return mapToJson(p);
}

export function policyFromJson(v: unknown, path: string): Policy {
  return mapFromJson(v, path, (x, p) => asUint(x, p, 32));
}

export function proofToJson(p: Proof): JsonValue {
  switch (p.kind) {
    case 'Cuckoo':
      return { CuckooProof: { edge_bits: p.edgeBits, nonces: [...p.nonces] } };
    case 'MD5':
      return { MD5Proof: { proof: p.proof, edge_bits: p.edgeBits } };
    case 'RandomX':
      return { RandomXProof: { hash: byteArray(p.hash) } };
    case 'ProgPow':
      return { ProgPowProof: { mix: byteArray(p.mix) } };
  }
}

/** Nonces must fit their edge bits: wider ones could not survive the packed wire form. */
function cuckooFromJson(o: ReturnType<typeof asObject>, path: string, proofSize: number): Proof {
  const edgeBits = asUint(field(o, 'edge_bits', path), sub(path, 'edge_bits'), 8);
  if (edgeBits === 0 || edgeBits > 64)
    throw new JsonFormError(sub(path, 'edge_bits'), `edge bits ${edgeBits} outside 1..64`);
  const raw = asArray(field(o, 'nonces', path), sub(path, 'nonces'));
  if (raw.length !== proofSize)
    throw new JsonFormError(sub(path, 'nonces'), `${raw.length} nonces, expected ${proofSize}`);
  const limit = 1n << BigInt(edgeBits);
  const nonces = raw.map((x, i) => {
    const n = asU64(x, sub(sub(path, 'nonces'), i));
    if (n >= limit)
      throw new JsonFormError(
        sub(sub(path, 'nonces'), i),
        `nonce ${n} does not fit ${edgeBits} bits`,
      );
    return n;
  });
  return { kind: 'Cuckoo', edgeBits, nonces };
}

export function proofFromJson(v: unknown, path: string, proofSize: number): Proof {
  const { tag, body } = asTagged(v, path);
  const at = sub(path, tag);
  if (body === undefined) throw new JsonFormError(path, `invalid proof \`${tag}\``);
  const o = asObject(body, at);
  switch (tag) {
    case 'CuckooProof':
      return cuckooFromJson(o, at, proofSize);
    case 'MD5Proof':
      return {
        kind: 'MD5',
        proof: asString(field(o, 'proof', at), sub(at, 'proof')),
        edgeBits: asUint(field(o, 'edge_bits', at), sub(at, 'edge_bits'), 8),
      };
    case 'RandomXProof':
      return { kind: 'RandomX', hash: asByteArray(field(o, 'hash', at), sub(at, 'hash'), 32) };
    case 'ProgPowProof':
      return { kind: 'ProgPow', mix: asByteArray(field(o, 'mix', at), sub(at, 'mix'), 32) };
    default:
      throw new JsonFormError(path, `unknown variant \`${tag}\``);
  }
}

export function proofOfWorkToJson(pow: ProofOfWork): JsonValue {
  return {
    total_difficulty: difficultyToJson(pow.totalDifficulty),
    secondary_scaling: pow.secondaryScaling,
    nonce: pow.nonce,
    proof: proofToJson(pow.proof),
    seed: byteArray(pow.seed),
  };
}

export function proofOfWorkFromJson(v: unknown, path: string, proofSize: number): ProofOfWork {
  const o = asObject(v, path);
  return {
    totalDifficulty: difficultyFromJson(
      field(o, 'total_difficulty', path),
      sub(path, 'total_difficulty'),
    ),
    secondaryScaling: asUint(
      field(o, 'secondary_scaling', path),
      sub(path, 'secondary_scaling'),
      32,
    ),
    nonce: asU64(field(o, 'nonce', path), sub(path, 'nonce')),
    proof: proofFromJson(field(o, 'proof', path), sub(path, 'proof'), proofSize),
    seed: asByteArray(field(o, 'seed', path), sub(path, 'seed'), 32),
  };
}
