// The two frames that carry an ask across a thread, both msgpack-encoded into one transferable
// ArrayBuffer. Control messages (ready, close) travel as small plain objects beside them, so
// a receiver tells the two apart by `instanceof ArrayBuffer`.
import { decode, encode } from './codec.js';
import { toWireError, type WireError } from './errors.js';

export interface RequestFrame {
  readonly id: number;
  readonly kind: string;
  readonly body: unknown;
}

export type ReplyFrame =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly id: number; readonly ok: false; readonly error: WireError };

export function encodeRequest(id: number, kind: string, body: unknown): ArrayBuffer {
  return encode([id, kind, body]);
}

export function decodeRequest(bytes: ArrayBuffer): RequestFrame {
  const [id, kind, body] = decode(bytes) as [number, string, unknown];
  return { id, kind, body };
}

/** Encodes a reply; a value the codec refuses becomes an 'Encode' error reply instead. */
export function encodeReply(id: number, value: unknown): ArrayBuffer {
  try {
    return encode([id, 0, value]);
  } catch (e) {
    return encodeErrorReply(id, { code: 'Encode', message: toWireError(e).message });
  }
}

export function encodeErrorReply(id: number, error: WireError): ArrayBuffer {
  return encode([id, 1, { code: error.code, message: error.message }]);
}

export function decodeReply(bytes: ArrayBuffer): ReplyFrame {
  const [id, status, payload] = decode(bytes) as [number, 0 | 1, unknown];
  return status === 0
    ? { id, ok: true, value: payload }
    : { id, ok: false, error: payload as WireError };
}

/** Control messages between an actor's owner and its thread. */
export type ToActorThread = { readonly t: 'close' };
export type FromActorThread =
  | { readonly t: 'ready' }
  | { readonly t: 'initFailed'; readonly error: WireError }
  | { readonly t: 'closed'; readonly error?: WireError };
