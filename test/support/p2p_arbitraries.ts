// fast-check arbitraries of every P2P message type, one per name (reusing the chain-object
// arbitraries), and which types encode canonically.
import fc from 'fast-check';
import type { ChainParams } from '../../core/chain_type.js';
import { MAX_LOCATORS, type MsgTypeName } from '../../core/p2p/msg_type.js';
import type { WireAddr } from '../../core/p2p/primitives.js';
import { BAN_REASONS, type MsgOf, type P2pMessage } from '../../core/p2p/types.js';
import {
  arbBlock,
  arbBytes,
  arbCompactBlock,
  arbDifficulty,
  arbHeader,
  arbTransaction,
  arbU8,
  arbU32,
  arbU64,
  rec,
} from './arbitraries.js';

type ArbTable = { readonly [K in MsgTypeName]: (p: ChainParams) => fc.Arbitrary<MsgOf<K>> };

const arbHash = (): fc.Arbitrary<Uint8Array> => arbBytes(32);
const arbI64 = (): fc.Arbitrary<bigint> => fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n });
const arbText = (maxLength: number): fc.Arbitrary<string> =>
  fc.oneof(fc.string({ maxLength }), fc.string({ unit: 'binary', maxLength }));

export function arbWireAddr(): fc.Arbitrary<WireAddr> {
  return rec({
    ip: fc.oneof(arbBytes(4), arbBytes(16)),
    port: fc.integer({ min: 0, max: 0xffff }),
  });
}

function lit<K extends MsgTypeName>(type: K): fc.Arbitrary<K> {
  return fc.constant(type);
}

const arbLocator = (): fc.Arbitrary<Uint8Array[]> =>
  fc.array(arbHash(), { maxLength: MAX_LOCATORS });
const arbHeaders = (p: ChainParams) => fc.array(arbHeader(p), { maxLength: 3 });
const pingLike =
  <K extends 'Ping' | 'Pong'>(type: K) =>
  (p: ChainParams) =>
    rec({
      type: lit(type),
      totalDifficulty: arbDifficulty(p),
      height: arbU64(),
      timestamp: arbI64(),
    });
const hashOnly =
  <K extends 'GetBlock' | 'GetCompactBlock' | 'GetTransaction' | 'TransactionKernel'>(type: K) =>
  () =>
    rec({ type: lit(type), hash: arbHash() });

const ARBS: ArbTable = {
  Error: () => rec({ type: lit('Error') }),
  Hand: (p) =>
    rec({
      type: lit('Hand'),
      version: arbU32(),
      capabilities: arbU32(),
      nonce: arbU64(),
      totalDifficulty: arbDifficulty(p),
      senderAddr: arbWireAddr(),
      receiverAddr: arbWireAddr(),
      userAgent: arbText(40),
      genesis: arbHash(),
    }),
  Shake: (p) =>
    rec({
      type: lit('Shake'),
      version: arbU32(),
      capabilities: arbU32(),
      totalDifficulty: arbDifficulty(p),
      userAgent: arbText(40),
      genesis: arbHash(),
    }),
  Ping: pingLike('Ping'),
  Pong: pingLike('Pong'),
  GetPeerAddrs: () => rec({ type: lit('GetPeerAddrs'), capabilities: arbU32() }),
  PeerAddrs: () =>
    rec({ type: lit('PeerAddrs'), peers: fc.array(arbWireAddr(), { maxLength: 12 }) }),
  GetHeaders: () => rec({ type: lit('GetHeaders'), locator: arbLocator() }),
  Header: (p) => rec({ type: lit('Header'), header: arbHeader(p) }),
  Headers: (p) => rec({ type: lit('Headers'), headers: arbHeaders(p) }),
  GetBlock: hashOnly('GetBlock'),
  Block: (p) => rec({ type: lit('Block'), block: arbBlock(p) }),
  GetCompactBlock: hashOnly('GetCompactBlock'),
  CompactBlock: (p) => rec({ type: lit('CompactBlock'), block: arbCompactBlock(p) }),
  StemTransaction: (p) => rec({ type: lit('StemTransaction'), tx: arbTransaction(p) }),
  Transaction: (p) => rec({ type: lit('Transaction'), tx: arbTransaction(p) }),
  TxHashSetRequest: () => rec({ type: lit('TxHashSetRequest'), hash: arbHash(), height: arbU64() }),
  TxHashSetArchive: () =>
    rec({ type: lit('TxHashSetArchive'), hash: arbHash(), height: arbU64(), bytes: arbU64() }),
  BanReason: () => rec({ type: lit('BanReason'), reason: fc.constantFrom(...BAN_REASONS) }),
  GetTransaction: hashOnly('GetTransaction'),
  TransactionKernel: hashOnly('TransactionKernel'),
  KernelDataRequest: () => rec({ type: lit('KernelDataRequest') }),
  KernelDataResponse: () => rec({ type: lit('KernelDataResponse'), bytes: arbU64() }),
  GetHeadersFastSync: () =>
    rec({ type: lit('GetHeadersFastSync'), locator: arbLocator(), offset: arbU8() }),
  FastHeaders: (p) => rec({ type: lit('FastHeaders'), headers: arbHeaders(p) }),
  OnionAddressRequest: () => rec({ type: lit('OnionAddressRequest') }),
  OnionAddressResponse: () => rec({ type: lit('OnionAddressResponse'), address: arbText(100) }),
};

export function arbMessage(name: MsgTypeName, params: ChainParams): fc.Arbitrary<P2pMessage> {
  return ARBS[name](params) as fc.Arbitrary<P2pMessage>;
}

/**
 * Types whose every decodable body re-encodes to itself. The others hold a Difficulty or
 * bottles map (entries may come in any order and repeat on the wire; the writer re-sorts them).
 */
export const NON_CANONICAL: ReadonlySet<MsgTypeName> = new Set<MsgTypeName>([
  'Hand',
  'Shake',
  'Ping',
  'Pong',
  'Header',
  'Headers',
  'Block',
  'CompactBlock',
  'FastHeaders',
]);
