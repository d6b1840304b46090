// Typed values of the 27 message types; `type` is the message name of msg_type.ts.
import type {
  BlockHeader,
  Block as ChainBlock,
  CompactBlock as ChainCompactBlock,
} from '../types/block.js';
import type { Difficulty } from '../types/pow.js';
import type { Transaction as ChainTransaction } from '../types/transaction.js';
import type { MsgTypeName } from './msg_type.js';
import type { WireAddr } from './primitives.js';

/** Epic's `ReasonForBan`, the i32 of BanReason. */
export const BAN_REASONS = [
  'None',
  'BadBlock',
  'BadCompactBlock',
  'BadBlockHeader',
  'BadTxHashSet',
  'ManualBan',
  'FraudHeight',
  'BadHandshake',
] as const;
export type BanReason = (typeof BAN_REASONS)[number];

export interface Empty<K extends MsgTypeName> {
  readonly type: K;
}

export interface HashOnly<K extends MsgTypeName> {
  readonly type: K;
  readonly hash: Uint8Array;
}

export interface PingLike<K extends MsgTypeName> {
  readonly type: K;
  readonly totalDifficulty: Difficulty;
  readonly height: bigint;
  readonly timestamp: bigint;
}

export interface HeaderList<K extends MsgTypeName> {
  readonly type: K;
  readonly headers: readonly BlockHeader[];
}

export interface TxMsg<K extends MsgTypeName> {
  readonly type: K;
  readonly tx: ChainTransaction;
}

export interface Hand {
  readonly type: 'Hand';
  /** Protocol version of the sender (u32). */
  readonly version: number;
  /** Raw u32 as sent (see truncateCapabilities). */
  readonly capabilities: number;
  readonly nonce: bigint;
  readonly totalDifficulty: Difficulty;
  readonly senderAddr: WireAddr;
  readonly receiverAddr: WireAddr;
  readonly userAgent: string;
  readonly genesis: Uint8Array;
}

export interface Shake {
  readonly type: 'Shake';
  readonly version: number;
  readonly capabilities: number;
  readonly totalDifficulty: Difficulty;
  readonly userAgent: string;
  readonly genesis: Uint8Array;
}

export type P2pMessage =
  | Empty<'Error'>
  | Hand
  | Shake
  | PingLike<'Ping'>
  | PingLike<'Pong'>
  | { readonly type: 'GetPeerAddrs'; readonly capabilities: number }
  | { readonly type: 'PeerAddrs'; readonly peers: readonly WireAddr[] }
  | { readonly type: 'GetHeaders'; readonly locator: readonly Uint8Array[] }
  | { readonly type: 'Header'; readonly header: BlockHeader }
  | HeaderList<'Headers'>
  | HashOnly<'GetBlock'>
  | { readonly type: 'Block'; readonly block: ChainBlock }
  | HashOnly<'GetCompactBlock'>
  | { readonly type: 'CompactBlock'; readonly block: ChainCompactBlock }
  | TxMsg<'StemTransaction'>
  | TxMsg<'Transaction'>
  | { readonly type: 'TxHashSetRequest'; readonly hash: Uint8Array; readonly height: bigint }
  | {
      readonly type: 'TxHashSetArchive';
      readonly hash: Uint8Array;
      readonly height: bigint;
      /** Length of the zip that follows the body on the stream. */
      readonly bytes: bigint;
    }
  | { readonly type: 'BanReason'; readonly reason: BanReason }
  | HashOnly<'GetTransaction'>
  | HashOnly<'TransactionKernel'>
  | Empty<'KernelDataRequest'>
  /** `bytes`: length of the kernel data that follows the body on the stream. */
  | { readonly type: 'KernelDataResponse'; readonly bytes: bigint }
  | {
      readonly type: 'GetHeadersFastSync';
      readonly locator: readonly Uint8Array[];
      readonly offset: number;
    }
  | HeaderList<'FastHeaders'>
  | Empty<'OnionAddressRequest'>
  | { readonly type: 'OnionAddressResponse'; readonly address: string };

export type MsgOf<K extends MsgTypeName> = Extract<P2pMessage, { readonly type: K }>;
