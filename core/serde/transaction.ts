// serde (JSON) forms of inputs, outputs, kernels, bodies and transactions, as Epic emits them.
import { compareBytes, fromHex, toHex } from '../bytes.js';
import type { JsonValue } from '../json/value.js';
import type {
  Input,
  KernelFeatures,
  Output,
  OutputFeatures,
  Transaction,
  TransactionBody,
  TxKernel,
} from '../types/transaction.js';
import {
  BLINDING_SIZE,
  COMMITMENT_SIZE,
  RANGE_PROOF_SIZE,
  SIGNATURE_SIZE,
} from '../types/transaction.js';
import {
  asArray,
  asHex,
  asHexSized,
  asObject,
  asString,
  asTagged,
  asU64,
  field,
  JsonFormError,
  sub,
} from './fields.js';

/** secp256k1 group order, big-endian: a compact signature half must be below it. */
const CURVE_ORDER = fromHex(
  'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141',
) as Uint8Array;

/** Raw (R.x ‖ s, big-endian) ↔ compact JSON form: each 32-byte half byte-reversed. */
export function flipSignatureHalves(sig: Uint8Array): Uint8Array {
  const out = new Uint8Array(SIGNATURE_SIZE);
  for (let i = 0; i < 32; i++) {
    out[i] = sig[31 - i] as number;
    out[32 + i] = sig[63 - i] as number;
  }
  return out;
}

export function outputFeaturesFromJson(v: unknown, path: string): OutputFeatures {
  const s = asString(v, path);
  if (s === 'Plain' || s === 'Coinbase') return s;
  throw new JsonFormError(path, `unknown variant \`${s}\`, expected \`Plain\` or \`Coinbase\``);
}

/** Epic pads a short commitment with zeros (`Commitment::from_vec`); a longer one is refused. */
export function commitmentFromJson(v: unknown, path: string): Uint8Array {
  const bytes = asHex(v, path);
  if (bytes.length > COMMITMENT_SIZE)
    throw new JsonFormError(path, `commitment of ${bytes.length} bytes`);
  const out = new Uint8Array(COMMITMENT_SIZE);
  out.set(bytes);
  return out;
}

export function inputToJson(x: Input): JsonValue {
  return { features: x.features, commit: toHex(x.commit) };
}

export function inputFromJson(v: unknown, path: string): Input {
  const o = asObject(v, path);
  return {
    features: outputFeaturesFromJson(field(o, 'features', path), sub(path, 'features')),
    commit: commitmentFromJson(field(o, 'commit', path), sub(path, 'commit')),
  };
}

export function outputToJson(x: Output): JsonValue {
  return { features: x.features, commit: toHex(x.commit), proof: toHex(x.proof) };
}

export function outputFromJson(v: unknown, path: string): Output {
  const o = asObject(v, path);
  return {
    features: outputFeaturesFromJson(field(o, 'features', path), sub(path, 'features')),
    commit: commitmentFromJson(field(o, 'commit', path), sub(path, 'commit')),
    proof: asHexSized(field(o, 'proof', path), sub(path, 'proof'), RANGE_PROOF_SIZE),
  };
}

export function kernelFeaturesToJson(f: KernelFeatures): JsonValue {
  switch (f.kind) {
    case 'Coinbase':
      return 'Coinbase';
    case 'Plain':
      return { Plain: { fee: f.fee } };
    case 'HeightLocked':
      return { HeightLocked: { fee: f.fee, lock_height: f.lockHeight } };
  }
}

export function kernelFeaturesFromJson(v: unknown, path: string): KernelFeatures {
  const { tag, body } = asTagged(v, path);
  const at = sub(path, tag);
  if (tag === 'Coinbase' && body === undefined) return { kind: 'Coinbase' };
  if (tag === 'Plain' && body !== undefined) {
    const o = asObject(body, at);
    return { kind: 'Plain', fee: asU64(field(o, 'fee', at), sub(at, 'fee')) };
  }
  if (tag === 'HeightLocked' && body !== undefined) {
    const o = asObject(body, at);
    return {
      kind: 'HeightLocked',
      fee: asU64(field(o, 'fee', at), sub(at, 'fee')),
      lockHeight: asU64(field(o, 'lock_height', at), sub(at, 'lock_height')),
    };
  }
  throw new JsonFormError(path, `invalid kernel features \`${tag}\``);
}

export function signatureToJson(raw: Uint8Array): string {
  return toHex(flipSignatureHalves(raw));
}

/** A compact signature whose halves, read big-endian, reach the group order does not parse. */
export function signatureFromJson(v: unknown, path: string): Uint8Array {
  const compact = asHexSized(v, path, SIGNATURE_SIZE);
  const raw = flipSignatureHalves(compact);
  if (
    compareBytes(raw.subarray(0, 32), CURVE_ORDER) >= 0 ||
    compareBytes(raw.subarray(32), CURVE_ORDER) >= 0
  ) {
    throw new JsonFormError(path, 'malformed signature');
  }
  return raw;
}

export function kernelToJson(k: TxKernel): JsonValue {
  return {
    features: kernelFeaturesToJson(k.features),
    excess: toHex(k.excess),
    excess_sig: signatureToJson(k.excessSig),
  };
}

export function kernelFromJson(v: unknown, path: string): TxKernel {
  const o = asObject(v, path);
  return {
    features: kernelFeaturesFromJson(field(o, 'features', path), sub(path, 'features')),
    excess: commitmentFromJson(field(o, 'excess', path), sub(path, 'excess')),
    excessSig: signatureFromJson(field(o, 'excess_sig', path), sub(path, 'excess_sig')),
  };
}

function listFromJson<T>(
  v: unknown,
  path: string,
  max: number,
  item: (x: unknown, p: string) => T,
): T[] {
  const a = asArray(v, path);
  if (a.length > max) throw new JsonFormError(path, `${a.length} elements, at most ${max}`);
  return a.map((x, i) => item(x, sub(path, i)));
}

/** The list cap matches the binary reader's; real bodies are limited far lower by weight. */
const MAX_LIST = 1_000_000;

export function bodyToJson(b: TransactionBody): JsonValue {
  return {
    inputs: b.inputs.map(inputToJson),
    outputs: b.outputs.map(outputToJson),
    kernels: b.kernels.map(kernelToJson),
  };
}

export function bodyFromJson(v: unknown, path: string): TransactionBody {
  const o = asObject(v, path);
  return {
    inputs: listFromJson(field(o, 'inputs', path), sub(path, 'inputs'), MAX_LIST, inputFromJson),
    outputs: listFromJson(
      field(o, 'outputs', path),
      sub(path, 'outputs'),
      MAX_LIST,
      outputFromJson,
    ),
    kernels: listFromJson(
      field(o, 'kernels', path),
      sub(path, 'kernels'),
      MAX_LIST,
      kernelFromJson,
    ),
  };
}

export function transactionToJson(tx: Transaction): JsonValue {
  return { offset: toHex(tx.offset), body: bodyToJson(tx.body) };
}

export function transactionFromJson(v: unknown, path: string): Transaction {
  const o = asObject(v, path);
  return {
    offset: asHexSized(field(o, 'offset', path), sub(path, 'offset'), BLINDING_SIZE),
    body: bodyFromJson(field(o, 'body', path), sub(path, 'body')),
  };
}
