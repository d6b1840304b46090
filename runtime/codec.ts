// The one encoding for everything an actor message carries across a thread: MessagePack via
// msgpackr, set up so the values this codebase uses come back with the same type and value.
import { Packr } from 'msgpackr';

/** What may travel in an actor message. Class instances other than Uint8Array do not survive. */
export type Plain =
  | null
  | undefined
  | boolean
  | number
  | bigint
  | string
  | Uint8Array
  | readonly Plain[]
  | PlainObject;
export type PlainObject = { readonly [key: string]: Plain };

const OPTIONS = {
  // Plain MessagePack maps: every message describes itself, so the two threads share no
  // record-structure state that a restarted actor would lose.
  useRecords: false,
  // msgpackr writes every bigint as a 64-bit integer, even 5n; decoding those as bigint (not
  // number, not 'auto') is what keeps u64 fields bigint on the other side.
  int64AsType: 'bigint',
  // bigints outside the 64-bit range (sums of u64s) go as an extension instead of throwing;
  // never as a float, which would lose digits without a word.
  useBigIntExtension: true,
  largeBigIntToFloat: false,
  // Byte strings stay MessagePack `bin`, decoded from a plain Uint8Array source into plain
  // Uint8Arrays. (moreTypes would turn on class extensions for Error, Set, typed arrays.)
  moreTypes: false,
  // Decoded byte strings own their memory: a 32-byte hash kept in an actor's state must not
  // pin the whole message (possibly a megabyte block) it arrived in.
  copyBuffers: true,
  // msgpackr would write a function as nil without a word; a handler returning one is a bug.
  writeFunction: () => {
    throw new TypeError('a function cannot cross a thread');
  },
} as const;

const packr = new Packr(OPTIONS);
/**
 * The owner's side of a thread boundary: replies and events are handed to a caller and dropped,
 * so byte strings stay views of the frame (a get_outputs reply body is 180 KB: a copy and an
 * allocation fewer per request). Nothing decoded here goes into an actor's state.
 */
const inPlace = new Packr({ ...OPTIONS, copyBuffers: false });

/**
 * Encodes into a fresh ArrayBuffer of exactly the message's size, ready for a transfer list.
 * msgpackr returns a view into its own reusable buffer, which must never be transferred.
 */
export function encode(value: unknown): ArrayBuffer {
  const view = packr.pack(value);
  const out = new ArrayBuffer(view.byteLength);
  new Uint8Array(out).set(view);
  return out;
}

export function decode(bytes: ArrayBuffer | Uint8Array): unknown {
  // A plain Uint8Array view even over a Buffer: msgpackr slices byte strings out of its source
  // with the source's own class, and Buffer must not leak into actor state.
  const source =
    bytes instanceof Uint8Array
      ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      : new Uint8Array(bytes);
  return packr.unpack(source);
}

/** As `decode`, with byte strings left as views into `bytes` (see `inPlace`). */
export function decodeInPlace(bytes: ArrayBuffer): unknown {
  return inPlace.unpack(new Uint8Array(bytes));
}

/** What a value looks like after crossing a thread: the same, or the codec's error. */
export function roundTrip<T>(value: T): T {
  return decode(encode(value)) as T;
}
