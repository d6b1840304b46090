// Epic's recorded usernet traffic and chain (../shared/vectors/p2p, see its README): the JSONL
// lines as written, and recorded frames decoded with our codecs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHAIN_PARAMS } from '../../core/chain_type.js';
import { decodeFrameHeader } from '../../core/p2p/frame.js';
import { decodeMessage } from '../../core/p2p/msg.js';
import type { MsgTypeName } from '../../core/p2p/msg_type.js';
import type { MsgOf, P2pMessage } from '../../core/p2p/types.js';
import { hex } from './crypto.js';
import { SHARED_VECTORS } from './paths.js';

export const P2P_VECTORS = join(SHARED_VECTORS, 'p2p');
export const USERNET = CHAIN_PARAMS.usernet;

/** A line of a session file or of the chain file (fields as the README lists them). */
export interface RecordedLine {
  readonly from?: string;
  readonly name?: string;
  readonly type?: number;
  readonly hex?: string;
  readonly height?: number;
  readonly hash?: string;
  readonly header_hex?: string;
}

export function recordedLines(file: string): RecordedLine[] {
  return readFileSync(join(P2P_VECTORS, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as RecordedLine);
}

/** A recorded whole frame (11-byte header first) decoded as protocol version 2. */
export function decodeRecordedFrame(frameHex: string): P2pMessage {
  const bytes = hex(frameHex);
  const h = decodeFrameHeader(bytes.subarray(0, 11), USERNET);
  return decodeMessage(h.type, bytes.subarray(11), 2, USERNET);
}

/** Every message named `name` in a session file, decoded, in recording order. */
export function recordedMessages<K extends MsgTypeName>(file: string, name: K): MsgOf<K>[] {
  return recordedLines(file)
    .filter((l) => l.name === name && l.hex !== undefined)
    .map((l) => decodeRecordedFrame(l.hex as string) as MsgOf<K>);
}
