// The 27 message types of Epic 4.0's P2P protocol and their size caps, as data.
// Caps are "nominal" sizes; a reader allows four times the nominal (Epic's headroom factor),
// and unknown types are allowed up to four times the largest block.
import type { WireParams } from '../ser/params.js';
import { OUTPUT_WEIGHT } from '../ser/transaction.js';

/** Bytes of the largest output on the wire; a block full of outputs bounds every block. */
const MAX_OUTPUT_BYTES = 708;
export const MAX_PEER_ADDRS = 256;
export const MAX_LOCATORS = 20;
export const MAX_BLOCK_HEADERS = 512;
/** Headroom factor applied on read to every nominal cap. */
export const CAP_FACTOR = 4;

export const MSG_TYPE_NAMES = [
  'Error',
  'Hand',
  'Shake',
  'Ping',
  'Pong',
  'GetPeerAddrs',
  'PeerAddrs',
  'GetHeaders',
  'Header',
  'Headers',
  'GetBlock',
  'Block',
  'GetCompactBlock',
  'CompactBlock',
  'StemTransaction',
  'Transaction',
  'TxHashSetRequest',
  'TxHashSetArchive',
  'BanReason',
  'GetTransaction',
  'TransactionKernel',
  'KernelDataRequest',
  'KernelDataResponse',
  'GetHeadersFastSync',
  'FastHeaders',
  'OnionAddressRequest',
  'OnionAddressResponse',
] as const;

export type MsgTypeName = (typeof MSG_TYPE_NAMES)[number];
/** Codes 0..26; anything above is unknown to Epic 4.0 and discarded. */
export const MSG_TYPE_COUNT = MSG_TYPE_NAMES.length;

/** Epic's `max_block_size`: a block filled with outputs only (integer division first). */
export function maxBlockSize(params: Pick<WireParams, 'maxBlockWeight'>): number {
  return Math.floor(params.maxBlockWeight / OUTPUT_WEIGHT) * MAX_OUTPUT_BYTES;
}

const HEADER_NOMINAL = 365;
const HEADERS_NOMINAL = 2 + HEADER_NOMINAL * MAX_BLOCK_HEADERS;
const LOCATOR_NOMINAL = 1 + 32 * MAX_LOCATORS;

/** Nominal cap per type code; a function only where the cap follows the chain's block size. */
const NOMINAL: readonly (number | ((blockSize: number) => number))[] = [
  0, // Error
  128, // Hand
  88, // Shake
  16, // Ping
  16, // Pong
  4, // GetPeerAddrs
  4 + (1 + 16 + 2) * MAX_PEER_ADDRS, // PeerAddrs
  LOCATOR_NOMINAL, // GetHeaders
  HEADER_NOMINAL, // Header
  HEADERS_NOMINAL, // Headers
  32, // GetBlock
  (b) => b, // Block
  32, // GetCompactBlock
  (b) => Math.floor(b / 10), // CompactBlock
  (b) => b, // StemTransaction
  (b) => b, // Transaction
  40, // TxHashSetRequest
  64, // TxHashSetArchive
  64, // BanReason
  32, // GetTransaction
  32, // TransactionKernel
  0, // KernelDataRequest
  8, // KernelDataResponse
  LOCATOR_NOMINAL + 2, // GetHeadersFastSync
  HEADERS_NOMINAL, // FastHeaders
  0, // OnionAddressRequest
  256, // OnionAddressResponse
];

export function isKnownType(code: number): boolean {
  return Number.isInteger(code) && code >= 0 && code < MSG_TYPE_COUNT;
}

export function nominalCap(code: number, params: Pick<WireParams, 'maxBlockWeight'>): number {
  const blockSize = maxBlockSize(params);
  const n = NOMINAL[code];
  if (n === undefined) return blockSize;
  return typeof n === 'number' ? n : n(blockSize);
}

/** Largest body a reader accepts for `code` (known or not). */
export function enforcedCap(code: number, params: Pick<WireParams, 'maxBlockWeight'>): number {
  return CAP_FACTOR * nominalCap(code, params);
}
