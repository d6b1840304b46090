// The frames that cross an actor's thread boundary, each msgpack-encoded into one transferable
// ArrayBuffer: requests to the actor; replies and published events from it. Events carry id 0
// (request ids start at 1) and travel in the same ordered stream as replies, so an event
// published while handling a request reaches the owner before that request's reply. Control
// messages (ready, close) travel as small plain objects beside them, so a receiver tells the
// two apart by `instanceof ArrayBuffer`. An actor's asks to other actors (calls, see link.ts)
// travel in the same streams with id -1: calls up beside replies and events, their replies down
// beside requests.
import { decode, decodeInPlace, encode } from './codec.js';
import { toWireError, type WireActorError, type WireError } from './errors.js';

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

/** An ask from the actor to another actor, for its owner to route. */
export interface CallFrame {
  readonly id: typeof CALL_ID;
  readonly call: number;
  readonly target: string;
  readonly kind: string;
  /** 0: the target's default deadline. */
  readonly deadlineMs: number;
  readonly body: unknown;
}

/** The answer to a call, from the owner back to the calling actor. */
export type CallReplyFrame =
  | {
      readonly id: typeof CALL_ID;
      readonly call: number;
      readonly ok: true;
      readonly value: unknown;
    }
  | {
      readonly id: typeof CALL_ID;
      readonly call: number;
      readonly ok: false;
      readonly error: WireActorError;
    };

const EVENT_ID = 0;
const CALL_ID = -1;

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

export function encodeCall(
  call: number,
  target: string,
  kind: string,
  deadlineMs: number,
  body: unknown,
): ArrayBuffer {
  return encode([CALL_ID, call, target, kind, deadlineMs, body]);
}

/** Encodes a call's answer; a value the codec refuses becomes an 'Encode' error instead. */
export function encodeCallReply(call: number, target: string, value: unknown): ArrayBuffer {
  try {
    return encode([CALL_ID, call, 0, value]);
  } catch (e) {
    const error = { code: 'Encode', message: toWireError(e).message };
    return encodeCallError(call, { ...error, name: 'ActorError', actor: target });
  }
}

export function encodeCallError(call: number, error: WireActorError): ArrayBuffer {
  return encode([CALL_ID, call, 1, error]);
}

/** A frame to an actor: a request for it, or the answer to one of its calls. */
export function decodeToActor(bytes: ArrayBuffer): RequestFrame | CallReplyFrame {
  const frame = decode(bytes) as unknown[];
  const [id, second, third, payload] = frame as [number, unknown, unknown, unknown];
  if (id !== CALL_ID) return { id, kind: second as string, body: third };
  const call = second as number;
  return third === 0
    ? { id: CALL_ID, call, ok: true, value: payload }
    : { id: CALL_ID, call, ok: false, error: payload as WireActorError };
}

/** A frame from an actor: a reply to one of its requests, an event it published, or a call. */
export function decodeFromActor(bytes: ArrayBuffer): ReplyFrame | EventFrame | CallFrame {
  const frame = decodeInPlace(bytes) as unknown[];
  const [id, second, payload] = frame as [number, unknown, unknown];
  if (id === EVENT_ID) return { id: EVENT_ID, topic: second as string, body: payload };
  if (id === CALL_ID) {
    const [, call, target, kind, deadlineMs, body] = frame as [
      number,
      number,
      string,
      string,
      number,
      unknown,
    ];
    return { id: CALL_ID, call, target, kind, deadlineMs, body };
  }
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
