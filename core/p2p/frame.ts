// The 11-byte message header: magic (2), type (1), body length (u64 BE). The attachment that
// follows types 17 and 22 is not counted in the length.
import { SerError } from '../ser/errors.js';
import { P2pError } from './errors.js';
import { enforcedCap, isKnownType } from './msg_type.js';

export const FRAME_HEADER_SIZE = 11;

/** What framing needs from a chain: its magic and the block weight the caps derive from. */
export interface FrameParams {
  readonly magic: readonly [number, number];
  readonly maxBlockWeight: number;
}

export interface FrameHeader {
  readonly type: number;
  /** Body length; at most the type's enforced cap, so always a safe integer. */
  readonly length: number;
  /** False for codes ≥ 27: the body is to be skipped, never parsed. */
  readonly known: boolean;
}

export function encodeFrameHeader(type: number, length: number, params: FrameParams): Uint8Array {
  const out = new Uint8Array(FRAME_HEADER_SIZE);
  const view = new DataView(out.buffer);
  out[0] = params.magic[0];
  out[1] = params.magic[1];
  out[2] = type;
  view.setBigUint64(3, BigInt(length));
  return out;
}

/** Checks magic and cap before anything else is read, so no length can cause an allocation. */
export function decodeFrameHeader(bytes: Uint8Array, params: FrameParams): FrameHeader {
  if (bytes.length !== FRAME_HEADER_SIZE) {
    throw new SerError('IOErr', `frame header of ${bytes.length} bytes, expected 11`);
  }
  if (bytes[0] !== params.magic[0] || bytes[1] !== params.magic[1]) {
    throw new P2pError(
      'BadMagic',
      `magic ${bytes[0]},${bytes[1]}, expected ${params.magic[0]},${params.magic[1]}`,
    );
  }
  const type = bytes[2] as number;
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(3);
  const cap = enforcedCap(type, params);
  if (length > BigInt(cap)) {
    throw new P2pError('TooLarge', `type ${type}: body of ${length} bytes is over ${cap}`);
  }
  return { type, length: Number(length), known: isKnownType(type) };
}
