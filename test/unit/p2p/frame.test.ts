// Framing: header layout, magic per chain, every type's cap at its limit and one past (the ×4
// rule), type 0, unknown types, length mismatches and the incremental reader.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { concatBytes, toHex } from '../../../core/bytes.js';
import { CHAIN_PARAMS } from '../../../core/chain_type.js';
import { decodeFrameHeader, encodeFrameHeader, type FrameParams } from '../../../core/p2p/frame.js';
import { type FrameEvent, FrameReader } from '../../../core/p2p/frame_reader.js';
import { decodeMessage, encodeFrame } from '../../../core/p2p/msg.js';
import { enforcedCap, MSG_TYPE_NAMES, maxBlockSize } from '../../../core/p2p/msg_type.js';
import { hex } from '../../support/crypto.js';
import { p2pError, serError } from '../../support/p2p.js';

const MAIN = CHAIN_PARAMS.mainnet;
const USER = CHAIN_PARAMS.usernet;

/** Enforced caps (4 × nominal) per type 0..26 on mainnet/floonet, from the p2p note §1.4. */
const MAINNET_CAPS = [
  0, 512, 352, 64, 64, 16, 19_472, 2564, 1460, 747_528, 128, 5_392_128, 128, 539_212, 5_392_128,
  5_392_128, 160, 256, 256, 128, 128, 0, 32, 2572, 747_528, 0, 1024,
];
/** On usernet only the block-sized caps change: max_block_size = 7 × 708 = 4956. */
const USERNET_CAPS = MAINNET_CAPS.map((c, i) =>
  [11, 14, 15].includes(i) ? 19_824 : i === 13 ? 1980 : c,
);

function header(params: FrameParams, type: number, length: bigint): Uint8Array {
  const out = new Uint8Array(11);
  out.set(params.magic);
  out[2] = type;
  new DataView(out.buffer).setBigUint64(3, length);
  return out;
}

describe('p2p frame header', () => {
  it('max_block_size is 1,348,032 on mainnet and floonet, 4956 on usernet', () => {
    assert.deepEqual(
      [maxBlockSize(MAIN), maxBlockSize(CHAIN_PARAMS.floonet), maxBlockSize(USER)],
      [1_348_032, 1_348_032, 4956],
    );
  });

  it('lays out magic, type, u64 BE length', () => {
    assert.equal(toHex(encodeFrameHeader(9, 0x0102, MAIN)), '613d090000000000000102');
    assert.deepEqual(decodeFrameHeader(hex('492b090000000000000102'), USER), {
      type: 9,
      length: 0x0102,
      known: true,
    });
  });

  for (const [chain, caps] of [
    ['mainnet', MAINNET_CAPS],
    ['floonet', MAINNET_CAPS],
    ['usernet', USERNET_CAPS],
  ] as const) {
    const params = CHAIN_PARAMS[chain];
    caps.forEach((cap, type) => {
      it(`${chain} ${MSG_TYPE_NAMES[type]}: ${cap} bytes accepted, ${cap + 1} refused`, () => {
        assert.equal(enforcedCap(type, params), cap);
        assert.deepEqual(decodeFrameHeader(header(params, type, BigInt(cap)), params), {
          type,
          length: cap,
          known: true,
        });
        assert.throws(
          () => decodeFrameHeader(header(params, type, BigInt(cap + 1)), params),
          p2pError('TooLarge'),
        );
      });
    });
  }

  it('type 0 (Error): empty is accepted and decodes to Error, any body is refused', () => {
    assert.deepEqual(decodeFrameHeader(header(MAIN, 0, 0n), MAIN), {
      type: 0,
      length: 0,
      known: true,
    });
    assert.deepStrictEqual(decodeMessage(0, new Uint8Array(0), 2, MAIN), { type: 'Error' });
    assert.throws(() => decodeFrameHeader(header(MAIN, 0, 1n), MAIN), p2pError('TooLarge'));
    assert.throws(() => decodeMessage(0, new Uint8Array(1), 2, MAIN), p2pError('TooLarge'));
  });

  it('unknown types (27..255) are skippable up to 4 × max_block_size, refused one past', () => {
    for (const type of [27, 28, 100, 255]) {
      for (const [params, cap] of [
        [MAIN, 5_392_128],
        [USER, 19_824],
      ] as const) {
        assert.deepEqual(decodeFrameHeader(header(params, type, BigInt(cap)), params), {
          type,
          length: cap,
          known: false,
        });
        assert.throws(
          () => decodeFrameHeader(header(params, type, BigInt(cap + 1)), params),
          p2pError('TooLarge'),
        );
      }
      assert.throws(() => decodeMessage(type, new Uint8Array(0), 2, MAIN), p2pError('UnknownType'));
    }
  });

  it('a length of 2^64 - 1 is refused without allocating', () => {
    assert.throws(
      () => decodeFrameHeader(header(MAIN, 11, (1n << 64n) - 1n), MAIN),
      p2pError('TooLarge'),
    );
  });

  it('refuses another chain’s magic (mainnet bytes on usernet and the reverse, floonet on mainnet)', () => {
    assert.throws(() => decodeFrameHeader(header(MAIN, 3, 0n), USER), p2pError('BadMagic'));
    assert.throws(() => decodeFrameHeader(header(USER, 3, 0n), MAIN), p2pError('BadMagic'));
    assert.throws(
      () => decodeFrameHeader(header(CHAIN_PARAMS.floonet, 3, 0n), MAIN),
      p2pError('BadMagic'),
    );
    assert.throws(
      () => decodeFrameHeader(hex('613e030000000000000000'), MAIN),
      p2pError('BadMagic'),
    );
  });

  it('a header that is not 11 bytes is an IOErr', () => {
    assert.throws(() => decodeFrameHeader(hex('613d0300'), MAIN), serError('IOErr'));
  });

  it('a body shorter than its message is IOErr, one with a trailing byte UnexpectedData', () => {
    const body = hex('0000001f');
    assert.throws(() => decodeMessage(5, body.subarray(0, 3), 2, MAIN), serError('IOErr'));
    assert.throws(
      () => decodeMessage(5, concatBytes(body, hex('00')), 2, MAIN),
      serError('UnexpectedData'),
    );
    assert.throws(() => decodeMessage(21, hex('00'), 2, MAIN), p2pError('TooLarge'));
  });
});

// A stream of: Ping, an unknown type 30 with 5 bytes, TxHashSetArchive + 10-byte attachment,
// KernelDataRequest (empty), KernelDataResponse with an empty attachment, GetPeerAddrs.
const PING = encodeFrame(
  { type: 'Ping', totalDifficulty: { randomx: 7n }, height: 9n, timestamp: 1n },
  2,
  USER,
);
const UNKNOWN = concatBytes(header(USER, 30, 5n), hex('0102030405'));
const ARCHIVE = encodeFrame(
  { type: 'TxHashSetArchive', hash: new Uint8Array(32).fill(1), height: 120n, bytes: 10n },
  2,
  USER,
);
const ZIP = hex('504b0304aabbccddeeff');
const KREQ = encodeFrame({ type: 'KernelDataRequest' }, 2, USER);
const KRESP = encodeFrame({ type: 'KernelDataResponse', bytes: 0n }, 2, USER);
const GPA = encodeFrame({ type: 'GetPeerAddrs', capabilities: 31 }, 2, USER);
const STREAM = concatBytes(PING, UNKNOWN, ARCHIVE, ZIP, KREQ, KRESP, GPA);

/** Events with attachment chunks joined, so chunking does not change the summary. */
function summarize(events: readonly FrameEvent[]): string[] {
  const out: string[] = [];
  let zip = '';
  for (const e of events) {
    if (e.kind === 'attachment') {
      zip += toHex(e.chunk);
      if (e.remaining === 0) out.push(`attachment ${e.type} ${zip}`);
    } else if (e.kind === 'skip') out.push(`skip ${e.type} ${e.length}`);
    else out.push(`message ${e.type} ${toHex(e.body)} +${e.attachment}`);
  }
  return out;
}

const EXPECTED = [
  `message 3 ${toHex(PING.subarray(11))} +0`,
  'skip 30 5',
  `message 17 ${toHex(ARCHIVE.subarray(11))} +10`,
  `attachment 17 ${toHex(ZIP)}`,
  'message 21  +0',
  'message 22 0000000000000000 +0',
  'message 5 0000001f +0',
];

describe('p2p FrameReader', () => {
  it('yields the same frames from one chunk and from single bytes', () => {
    const whole = new FrameReader(USER);
    assert.deepEqual(summarize(whole.push(STREAM)), EXPECTED);
    assert.equal(whole.idle, true);
    const bytewise = new FrameReader(USER);
    const events: FrameEvent[] = [];
    for (let i = 0; i < STREAM.length; i++)
      events.push(...bytewise.push(STREAM.subarray(i, i + 1)));
    assert.deepEqual(summarize(events), EXPECTED);
    assert.equal(bytewise.idle, true);
  });

  it('passes the attachment through as views, never buffering more than the largest body', () => {
    const r = new FrameReader(USER);
    const events = r.push(STREAM);
    const chunks = events.filter((e) => e.kind === 'attachment');
    assert.equal(chunks.length, 1);
    assert.equal(chunks[0]?.kind === 'attachment' && chunks[0].chunk.buffer, STREAM.buffer);
    // The largest body in the stream is the archive's 48 bytes; the 10-byte zip is not copied.
    assert.equal(r.largestBuffer, 48);
  });

  it('stays failed after a bad frame: a good frame afterwards throws the same error', () => {
    const r = new FrameReader(MAIN);
    assert.throws(() => r.push(PING), p2pError('BadMagic'));
    assert.throws(() => r.push(encodeFrame({ type: 'Error' }, 2, MAIN)), p2pError('BadMagic'));
  });

  it('is not idle in the middle of a frame', () => {
    const r = new FrameReader(USER);
    r.push(PING.subarray(0, 20));
    assert.equal(r.idle, false);
  });

  it('refuses a bad magic, an over-cap body and an over-long attachment with typed errors', () => {
    assert.throws(() => new FrameReader(USER).push(header(USER, 3, 65n)), p2pError('TooLarge'));
    assert.throws(() => new FrameReader(MAIN).push(PING), p2pError('BadMagic'));
    assert.throws(() => new FrameReader(USER, 9).push(ARCHIVE), p2pError('AttachmentTooLarge'));
    assert.throws(
      () => new FrameReader(USER).push(concatBytes(header(USER, 17, 47n), new Uint8Array(47))),
      serError('IOErr'),
    );
  });
});
