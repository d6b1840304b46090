// Whole message bodies and frames. How the protocol version is passed: every call takes the
// version to (de)serialize with. Callers pass their local version (2) for Hand, the peer's
// negotiated `min(local, remote)` for Shake and everything after; only kernel features inside
// Block, CompactBlock and (Stem)Transaction read it.
import { decode, encode } from '../ser/codec.js';
import type { ProtocolVersion, WireParams } from '../ser/params.js';
import { CODECS, type MsgCodec } from './codecs.js';
import { P2pError } from './errors.js';
import { encodeFrameHeader, FRAME_HEADER_SIZE, type FrameParams } from './frame.js';
import { enforcedCap, isKnownType, MSG_TYPE_NAMES, type MsgTypeName } from './msg_type.js';
import type { P2pMessage } from './types.js';

export type MsgParams = WireParams & FrameParams;

export function msgTypeCode(name: MsgTypeName): number {
  return MSG_TYPE_NAMES.indexOf(name);
}

function codecOf(code: number): MsgCodec<P2pMessage> {
  const name = MSG_TYPE_NAMES[code];
  if (!isKnownType(code) || name === undefined) {
    throw new P2pError('UnknownType', `no codec for message type ${code}`);
  }
  return CODECS[name] as MsgCodec<P2pMessage>;
}

/**
 * Decodes one body of type `code`. The whole body must be consumed (a length mismatch is a
 * SerError); a body over the type's cap is refused before it is read.
 */
export function decodeMessage(
  code: number,
  body: Uint8Array,
  version: ProtocolVersion,
  params: MsgParams,
): P2pMessage {
  const codec = codecOf(code);
  const cap = enforcedCap(code, params);
  if (body.length > cap) {
    throw new P2pError('TooLarge', `type ${code}: body of ${body.length} bytes is over ${cap}`);
  }
  return decode(codec.read, body, version, params, MSG_TYPE_NAMES[code] as string);
}

export function encodeMessage(
  m: P2pMessage,
  version: ProtocolVersion,
  params: MsgParams,
): Uint8Array {
  return encode(codecOf(msgTypeCode(m.type)).write, m, version, params).slice();
}

/** Header and body; refuses a body the receiver would refuse as over its cap. */
export function encodeFrame(
  m: P2pMessage,
  version: ProtocolVersion,
  params: MsgParams,
): Uint8Array {
  const code = msgTypeCode(m.type);
  const body = encodeMessage(m, version, params);
  const cap = enforcedCap(code, params);
  if (body.length > cap) {
    throw new P2pError('TooLarge', `${m.type}: body of ${body.length} bytes is over ${cap}`);
  }
  const out = new Uint8Array(FRAME_HEADER_SIZE + body.length);
  out.set(encodeFrameHeader(code, body.length, params));
  out.set(body, FRAME_HEADER_SIZE);
  return out;
}
