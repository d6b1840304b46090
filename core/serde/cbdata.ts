// A coinbase bundle `{output, kernel, key_id}`: the foundation file's lines and the wallet's
// `build_coinbase` answer.
import { toHex } from '../bytes.js';
import type { JsonValue } from '../json/value.js';
import type { Output, TxKernel } from '../types/transaction.js';
import { asHexSized, asObject, field, sub } from './fields.js';
import { kernelFromJson, kernelToJson, outputFromJson, outputToJson } from './transaction.js';

export const IDENTIFIER_SIZE = 17;

export interface CbData {
  readonly output: Output;
  readonly kernel: TxKernel;
  /** 17-byte keychain identifier. */
  readonly keyId: Uint8Array;
}

export function cbDataToJson(c: CbData): JsonValue {
  return { output: outputToJson(c.output), kernel: kernelToJson(c.kernel), key_id: toHex(c.keyId) };
}

export function cbDataFromJson(v: unknown, path: string): CbData {
  const o = asObject(v, path);
  return {
    output: outputFromJson(field(o, 'output', path), sub(path, 'output')),
    kernel: kernelFromJson(field(o, 'kernel', path), sub(path, 'kernel')),
    keyId: asHexSized(field(o, 'key_id', path), sub(path, 'key_id'), IDENTIFIER_SIZE),
  };
}
