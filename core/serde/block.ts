// serde ("raw") forms of the block header and block, as the mining methods carry them.
import type { ChainParams } from '../chain_type.js';
import type { JsonValue } from '../json/value.js';
import { MAX_TIMESTAMP, MIN_TIMESTAMP } from '../ser/header.js';
import { formatUtcZ, parseRfc3339 } from '../time.js';
import type { Block, BlockHeader } from '../types/block.js';
import {
  asByteArray,
  asObject,
  asString,
  asU64,
  asUint,
  byteArray,
  field,
  JsonFormError,
  sub,
} from './fields.js';
import { policyFromJson, policyToJson, proofOfWorkFromJson, proofOfWorkToJson } from './pow.js';
import { bodyFromJson, bodyToJson } from './transaction.js';

export function headerToJson(h: BlockHeader): JsonValue {
  return {
    version: h.version,
    height: h.height,
    prev_hash: byteArray(h.prevHash),
    prev_root: byteArray(h.prevRoot),
    timestamp: formatUtcZ(h.timestamp),
    output_root: byteArray(h.outputRoot),
    range_proof_root: byteArray(h.rangeProofRoot),
    kernel_root: byteArray(h.kernelRoot),
    total_kernel_offset: byteArray(h.totalKernelOffset),
    output_mmr_size: h.outputMmrSize,
    kernel_mmr_size: h.kernelMmrSize,
    pow: proofOfWorkToJson(h.pow),
    policy: h.policy,
    bottles: policyToJson(h.bottles),
  };
}

function timestampFromJson(v: unknown, path: string): number {
  const t = parseRfc3339(asString(v, path));
  if (t === null || t < MIN_TIMESTAMP || t > MAX_TIMESTAMP)
    throw new JsonFormError(path, 'invalid RFC 3339 timestamp');
  return t;
}

const hash32 = (o: ReturnType<typeof asObject>, key: string, path: string): Uint8Array =>
  asByteArray(field(o, key, path), sub(path, key), 32);

/** The header version is not checked against the height here: validation does that. */
export function headerFromJson(v: unknown, path: string, params: ChainParams): BlockHeader {
  const o = asObject(v, path);
  return {
    version: asUint(field(o, 'version', path), sub(path, 'version'), 16),
    height: asU64(field(o, 'height', path), sub(path, 'height')),
    timestamp: timestampFromJson(field(o, 'timestamp', path), sub(path, 'timestamp')),
    prevHash: hash32(o, 'prev_hash', path),
    prevRoot: hash32(o, 'prev_root', path),
    outputRoot: hash32(o, 'output_root', path),
    rangeProofRoot: hash32(o, 'range_proof_root', path),
    kernelRoot: hash32(o, 'kernel_root', path),
    totalKernelOffset: hash32(o, 'total_kernel_offset', path),
    outputMmrSize: asU64(field(o, 'output_mmr_size', path), sub(path, 'output_mmr_size')),
    kernelMmrSize: asU64(field(o, 'kernel_mmr_size', path), sub(path, 'kernel_mmr_size')),
    pow: proofOfWorkFromJson(field(o, 'pow', path), sub(path, 'pow'), params.proofSize),
    policy: asUint(field(o, 'policy', path), sub(path, 'policy'), 8),
    bottles: policyFromJson(field(o, 'bottles', path), sub(path, 'bottles')),
  };
}

export function blockToJson(b: Block): JsonValue {
  return { header: headerToJson(b.header), body: bodyToJson(b.body) };
}

export function blockFromJson(v: unknown, path: string, params: ChainParams): Block {
  const o = asObject(v, path);
  return {
    header: headerFromJson(field(o, 'header', path), sub(path, 'header'), params),
    body: bodyFromJson(field(o, 'body', path), sub(path, 'body')),
  };
}
