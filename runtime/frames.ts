// The frames that cross an actor's thread boundary, each msgpack-encoded into one transferable
// ArrayBuffer: requests to the actor; replies and published events from it. Events carry id 0
// (request ids start at 1) and travel in the same ordered stream as replies, so an event
// published while handling a request reaches the owner before that request's reply. Control
// messages (ready, close) travel as small plain objects beside them, so a receiver tells the
// two apart by `instanceof ArrayBuffer`.
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

export interface EventFrame {
  readonly id: 0;
  readonly topic: string;
  readonly body: unknown;
}

const EVENT_ID = 0;

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

export function encodeEvent(topic: string, body: unknown): ArrayBuffer {
  return encode([EVENT_ID, topic, body]);
}

/** A frame from an actor: a reply to one of its requests, or an event it published. */
export function decodeFromActor(bytes: ArrayBuffer): ReplyFrame | EventFrame {
  const [id, second, payload] = decode(bytes) as [number, unknown, unknown];
  if (id === EVENT_ID) return { id: EVENT_ID, topic: second as string, body: payload };
  return second === 0
    ? { id, ok: true, value: payload }
    : { id, ok: false, error: payload as WireError };
}

/** Control messages between an actor's owner and its thread. */
export type ToActorThread = { readonly t: 'close' };
export type FromActorThread =
  | { readonly t: 'ready' }
  | { readonly t: 'initFailed'; readonly error: WireError }
  | { readonly t: 'closed'; readonly error?: WireError };
