// One read/write pair per message type, in a table keyed by name. Bodies depend on the
// protocol version only through kernel features inside blocks and transactions; the Reader and
// Writer carry that version (see msg.ts).
import { readBlock, readCompactBlock, writeBlock, writeCompactBlock } from '../ser/block.js';
import { SerError } from '../ser/errors.js';
import { readHeader, writeHeader } from '../ser/header.js';
import { readDifficulty, writeDifficulty } from '../ser/pow.js';
import type { Reader } from '../ser/reader.js';
import { readTransaction, writeTransaction } from '../ser/transaction.js';
import type { Writer } from '../ser/writer.js';
import { MAX_BLOCK_HEADERS, MAX_LOCATORS, MAX_PEER_ADDRS, type MsgTypeName } from './msg_type.js';
import {
  readHash,
  readLocator,
  readPeerAddr,
  readString,
  writeHash,
  writeLocator,
  writePeerAddr,
  writeString,
} from './primitives.js';
import {
  BAN_REASONS,
  type Empty,
  type HashOnly,
  type HeaderList,
  type MsgOf,
  type PingLike,
  type TxMsg,
} from './types.js';

export interface MsgCodec<M> {
  readonly read: (r: Reader) => M;
  readonly write: (w: Writer, m: M) => void;
}

type CodecTable = { readonly [K in MsgTypeName]: MsgCodec<MsgOf<K>> };

// Factories for the types that share a shape.

function empty<K extends MsgTypeName>(type: K): MsgCodec<Empty<K>> {
  return { read: () => ({ type }), write: () => {} };
}

type HashOnlyName = 'GetBlock' | 'GetCompactBlock' | 'GetTransaction' | 'TransactionKernel';

function hashOnly<K extends HashOnlyName>(type: K): MsgCodec<HashOnly<K>> {
  return {
    read: (r) => ({ type, hash: readHash(r, `${type} hash`) }),
    write: (w, m) => writeHash(w, m.hash, `${type} hash`),
  };
}

function pingLike<K extends 'Ping' | 'Pong'>(type: K): MsgCodec<PingLike<K>> {
  return {
    read: (r) => ({
      type,
      totalDifficulty: readDifficulty(r),
      height: r.u64('height'),
      timestamp: r.i64('local timestamp'),
    }),
    write: (w, m) => {
      writeDifficulty(w, m.totalDifficulty);
      w.u64(m.height);
      w.i64(m.timestamp);
    },
  };
}

/** u16 count (at most 512), then full headers: Headers and FastHeaders. */
function headerList<K extends 'Headers' | 'FastHeaders'>(type: K): MsgCodec<HeaderList<K>> {
  return {
    read: (r) => {
      const count = r.u16('header count');
      if (count > MAX_BLOCK_HEADERS) {
        throw new SerError('TooLargeReadErr', `${count} headers, max ${MAX_BLOCK_HEADERS}`);
      }
      return { type, headers: r.multi(BigInt(count), 'headers', readHeader) };
    },
    write: (w, m) => {
      if (m.headers.length > MAX_BLOCK_HEADERS) {
        throw new SerError('TooLargeReadErr', `${m.headers.length} headers, max 512`);
      }
      w.u16(m.headers.length);
      for (const h of m.headers) writeHeader(w, h);
    },
  };
}

function txMsg<K extends 'StemTransaction' | 'Transaction'>(type: K): MsgCodec<TxMsg<K>> {
  return {
    read: (r) => ({ type, tx: readTransaction(r) }),
    write: (w, m) => writeTransaction(w, m.tx),
  };
}

const hand: MsgCodec<MsgOf<'Hand'>> = {
  read: (r) => ({
    type: 'Hand',
    version: r.u32('version'),
    capabilities: r.u32('capabilities'),
    nonce: r.u64('nonce'),
    totalDifficulty: readDifficulty(r),
    senderAddr: readPeerAddr(r),
    receiverAddr: readPeerAddr(r),
    userAgent: readString(r, 'user agent'),
    // Last on the wire, though Epic's struct lists it earlier.
    genesis: readHash(r, 'genesis'),
  }),
  write: (w, m) => {
    w.u32(m.version);
    w.u32(m.capabilities);
    w.u64(m.nonce);
    writeDifficulty(w, m.totalDifficulty);
    writePeerAddr(w, m.senderAddr);
    writePeerAddr(w, m.receiverAddr);
    writeString(w, m.userAgent);
    writeHash(w, m.genesis, 'genesis');
  },
};

const shake: MsgCodec<MsgOf<'Shake'>> = {
  read: (r) => ({
    type: 'Shake',
    version: r.u32('version'),
    capabilities: r.u32('capabilities'),
    totalDifficulty: readDifficulty(r),
    userAgent: readString(r, 'user agent'),
    genesis: readHash(r, 'genesis'),
  }),
  write: (w, m) => {
    w.u32(m.version);
    w.u32(m.capabilities);
    writeDifficulty(w, m.totalDifficulty);
    writeString(w, m.userAgent);
    writeHash(w, m.genesis, 'genesis');
  },
};

const peerAddrs: MsgCodec<MsgOf<'PeerAddrs'>> = {
  read: (r) => {
    const count = r.u32('peer count');
    if (count > MAX_PEER_ADDRS) {
      throw new SerError('TooLargeReadErr', `${count} peer addresses, max ${MAX_PEER_ADDRS}`);
    }
    return { type: 'PeerAddrs', peers: r.multi(BigInt(count), 'peers', readPeerAddr) };
  },
  write: (w, m) => {
    if (m.peers.length > MAX_PEER_ADDRS) {
      throw new SerError('TooLargeReadErr', `${m.peers.length} peer addresses, max 256`);
    }
    w.u32(m.peers.length);
    for (const p of m.peers) writePeerAddr(w, p);
  },
};

const banReason: MsgCodec<MsgOf<'BanReason'>> = {
  // Epic reads a body too short for an i32 as None; we refuse it (docs/decisions.md).
  read: (r) => {
    const code = r.i32('ban reason');
    const reason = BAN_REASONS[code];
    if (code < 0 || reason === undefined) {
      throw new SerError('CorruptedData', `unknown ban reason ${code}`);
    }
    return { type: 'BanReason', reason };
  },
  write: (w, m) => w.u32(BAN_REASONS.indexOf(m.reason)),
};

export const CODECS: CodecTable = {
  Error: empty('Error'),
  Hand: hand,
  Shake: shake,
  Ping: pingLike('Ping'),
  Pong: pingLike('Pong'),
  GetPeerAddrs: {
    read: (r) => ({ type: 'GetPeerAddrs', capabilities: r.u32('capabilities') }),
    write: (w, m) => w.u32(m.capabilities),
  },
  PeerAddrs: peerAddrs,
  GetHeaders: {
    read: (r) => ({ type: 'GetHeaders', locator: readLocator(r, MAX_LOCATORS) }),
    write: (w, m) => writeLocator(w, m.locator, MAX_LOCATORS),
  },
  Header: {
    read: (r) => ({ type: 'Header', header: readHeader(r) }),
    write: (w, m) => writeHeader(w, m.header),
  },
  Headers: headerList('Headers'),
  GetBlock: hashOnly('GetBlock'),
  Block: {
    read: (r) => ({ type: 'Block', block: readBlock(r) }),
    write: (w, m) => writeBlock(w, m.block),
  },
  GetCompactBlock: hashOnly('GetCompactBlock'),
  CompactBlock: {
    read: (r) => ({ type: 'CompactBlock', block: readCompactBlock(r) }),
    write: (w, m) => writeCompactBlock(w, m.block),
  },
  StemTransaction: txMsg('StemTransaction'),
  Transaction: txMsg('Transaction'),
  TxHashSetRequest: {
    read: (r) => ({
      type: 'TxHashSetRequest',
      hash: readHash(r, 'txhashset hash'),
      height: r.u64('txhashset height'),
    }),
    write: (w, m) => {
      writeHash(w, m.hash, 'txhashset hash');
      w.u64(m.height);
    },
  },
  TxHashSetArchive: {
    read: (r) => ({
      type: 'TxHashSetArchive',
      hash: readHash(r, 'archive hash'),
      height: r.u64('archive height'),
      bytes: r.u64('archive bytes'),
    }),
    write: (w, m) => {
      writeHash(w, m.hash, 'archive hash');
      w.u64(m.height);
      w.u64(m.bytes);
    },
  },
  BanReason: banReason,
  GetTransaction: hashOnly('GetTransaction'),
  TransactionKernel: hashOnly('TransactionKernel'),
  KernelDataRequest: empty('KernelDataRequest'),
  KernelDataResponse: {
    read: (r) => ({ type: 'KernelDataResponse', bytes: r.u64('kernel data bytes') }),
    write: (w, m) => w.u64(m.bytes),
  },
  GetHeadersFastSync: {
    read: (r) => ({
      type: 'GetHeadersFastSync',
      locator: readLocator(r, MAX_LOCATORS),
      offset: r.u8('offset'),
    }),
    write: (w, m) => {
      writeLocator(w, m.locator, MAX_LOCATORS);
      w.u8(m.offset);
    },
  },
  FastHeaders: headerList('FastHeaders'),
  OnionAddressRequest: empty('OnionAddressRequest'),
  OnionAddressResponse: {
    read: (r) => ({ type: 'OnionAddressResponse', address: readString(r, 'onion address') }),
    write: (w, m) => writeString(w, m.address),
  },
};
