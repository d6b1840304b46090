// Every message of the recorded Epic 4.0 usernet traffic (../shared/vectors/p2p) decodes with
// our codecs and re-encodes to exactly the recorded bytes; a few decoded values are checked
// exactly against what the recording says.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { concatBytes, toHex } from '../../../core/bytes.js';
import { CHAIN_PARAMS } from '../../../core/chain_type.js';
import { decodeFrameHeader } from '../../../core/p2p/frame.js';
import { type FrameEvent, FrameReader } from '../../../core/p2p/frame_reader.js';
import { decodeMessage, encodeFrame } from '../../../core/p2p/msg.js';
import { MSG_TYPE_NAMES } from '../../../core/p2p/msg_type.js';
import type { MsgOf, P2pMessage } from '../../../core/p2p/types.js';
import { readBlock, writeBlock } from '../../../core/ser/block.js';
import { decode, encode } from '../../../core/ser/codec.js';
import { headerHash } from '../../../core/ser/header.js';
import { hex } from '../../support/crypto.js';
import { SHARED_VECTORS } from '../../support/paths.js';

const DIR = join(SHARED_VECTORS, 'p2p');
const USER = CHAIN_PARAMS.usernet;
const GENESIS = '2eb72db9505c31aac4d344c7ce4cad426e060f4f4034954187b5f77e8e4fa156';
const SESSIONS = [
  'usernet_sync_capture',
  'usernet_client_exchange',
  'usernet_oracle_phase_capture',
  'usernet_relay_header_first',
  'usernet_relay_skip_pow',
];

interface Recorded {
  readonly from: string;
  readonly type: number;
  readonly name: string;
  readonly hex: string;
  readonly len: number;
  readonly attachment?: { readonly file: string; readonly bytes: number; readonly sha256: string };
}

function lines<T>(file: string): T[] {
  return readFileSync(join(DIR, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}

/** Recorded messages of a session (lines without `hex` are notes). */
function session(name: string): Recorded[] {
  return lines<Recorded & { hex?: string }>(`${name}.jsonl`).filter(
    (m): m is Recorded => typeof m.hex === 'string',
  );
}

/** Every recorded session negotiated protocol version 2 (both Hands and Shakes say 2). */
function decodeRecorded(m: Recorded): P2pMessage {
  const bytes = hex(m.hex);
  const h = decodeFrameHeader(bytes.subarray(0, 11), USER);
  assert.deepEqual(h, { type: m.type, length: m.len, known: true });
  assert.equal(bytes.length, 11 + m.len);
  const msg = decodeMessage(h.type, bytes.subarray(11), 2, USER);
  assert.equal(msg.type, m.name);
  assert.equal(MSG_TYPE_NAMES[m.type], m.name);
  return msg;
}

function find<K extends P2pMessage['type']>(name: string, type: K, from: string): MsgOf<K> {
  const m = session(name).find((x) => x.name === type && x.from === from);
  assert.ok(m, `${name} has a ${type} from ${from}`);
  return decodeRecorded(m) as MsgOf<K>;
}

describe('p2p replay of recorded Epic traffic', () => {
  for (const name of SESSIONS) {
    it(`${name}: every message decodes and re-encodes to the recorded bytes`, () => {
      const msgs = session(name);
      assert.ok(msgs.length >= 9);
      for (const m of msgs) {
        const value = decodeRecorded(m);
        assert.equal(
          toHex(encodeFrame(value, 2, USER)),
          m.hex,
          `${name}: ${m.name} from ${m.from}`,
        );
      }
    });
  }

  it('the recordings hold types 1–13 and 15–24 (not 0, 14, 25, 26: those are in the goldens and properties)', () => {
    const seen = new Set(SESSIONS.flatMap((s) => session(s).map((m) => m.type)));
    assert.deepEqual(
      [...seen].sort((a, b) => a - b),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24],
    );
  });

  it("Epic's Hand: version 2, capabilities 0x1f, UA MW/Epic 4.0.0, loopback addresses, usernet genesis", () => {
    const h = find('usernet_sync_capture', 'Hand', 'B');
    assert.equal(h.version, 2);
    assert.equal(h.capabilities, 0x1f);
    assert.equal(h.nonce, 0xd7daa5c20d78124cn);
    assert.deepStrictEqual(h.totalDifficulty, {
      cuckaroo: 1n,
      cuckatoo: 1n,
      randomx: 1n,
      progpow: 1n,
    });
    assert.deepStrictEqual(h.senderAddr, { ip: hex('7f000001'), port: 32414 });
    assert.deepStrictEqual(h.receiverAddr, { ip: hex('7f000001'), port: 31414 });
    assert.equal(h.userAgent, 'MW/Epic 4.0.0');
    assert.equal(toHex(h.genesis), GENESIS);
  });

  it("Epic's Shake: version 2, capabilities 0x1f, usernet genesis", () => {
    const s = find('usernet_sync_capture', 'Shake', 'A');
    assert.deepEqual([s.version, s.capabilities, s.userAgent], [2, 0x1f, 'MW/Epic 4.0.0']);
    assert.equal(toHex(s.genesis), GENESIS);
  });

  it('PeerAddrs is empty; GetHeadersFastSync asks from genesis at offset 0', () => {
    assert.deepStrictEqual(find('usernet_sync_capture', 'PeerAddrs', 'A'), {
      type: 'PeerAddrs',
      peers: [],
    });
    const g = find('usernet_sync_capture', 'GetHeadersFastSync', 'B');
    assert.deepEqual([g.locator.map(toHex), g.offset], [[GENESIS], 0]);
  });

  it('FastHeaders carries headers 1..140; Headers 1..147', () => {
    const fast = find('usernet_sync_capture', 'FastHeaders', 'A');
    assert.deepEqual(
      fast.headers.map((h) => h.height),
      Array.from({ length: 140 }, (_, i) => BigInt(i + 1)),
    );
    assert.equal(toHex(fast.headers[0]?.prevHash ?? new Uint8Array()), GENESIS);
    const all = find('usernet_client_exchange', 'Headers', 'A');
    assert.equal(all.headers.length, 147);
    assert.equal(all.headers[146]?.height, 147n);
  });

  it('TxHashSetArchive: height 120, 265,454 zip bytes; KernelDataResponse: 20,186 bytes; BanReason ManualBan', () => {
    const a = find('usernet_sync_capture', 'TxHashSetArchive', 'A');
    assert.deepEqual(
      [toHex(a.hash), a.height, a.bytes],
      ['1d9804e66f0fb8b9d4a91aebf9d55b2935ebff19011168cb1c58b56099524065', 120n, 265_454n],
    );
    const k = find('usernet_oracle_phase_capture', 'KernelDataResponse', 'B');
    assert.equal(k.bytes, 20_186n);
    const b = find('usernet_oracle_phase_capture', 'BanReason', 'A');
    assert.equal(b.reason, 'ManualBan');
  });

  it("A's stream to B, with the real zip after the archive, through FrameReader in 1460-byte chunks", () => {
    const fromA = session('usernet_sync_capture').filter((m) => m.from === 'A');
    const zip = readFileSync(join(DIR, 'usernet_txhashset_1d9804e66f0f.zip'));
    const stream = concatBytes(
      ...fromA.flatMap((m) => (m.attachment ? [hex(m.hex), new Uint8Array(zip)] : [hex(m.hex)])),
    );
    const reader = new FrameReader(USER);
    const events: FrameEvent[] = [];
    for (let i = 0; i < stream.length; i += 1460)
      events.push(...reader.push(stream.subarray(i, i + 1460)));
    assert.equal(reader.idle, true);
    const bodies = events.flatMap((e) => (e.kind === 'message' ? [toHex(e.body)] : []));
    assert.deepEqual(
      bodies,
      fromA.map((m) => m.hex.slice(22)),
    );
    const sha = createHash('sha256');
    for (const e of events) if (e.kind === 'attachment') sha.update(e.chunk);
    assert.equal(
      sha.digest('hex'),
      '8be14b7594b8ba6e93a2a69718d4f0de2f4a5bd46120e40ea6b995d258d844e5',
    );
    // Only bodies are buffered: the largest is FastHeaders (55,330 bytes), never the zip.
    assert.equal(reader.largestBuffer, 55_330);
  });
});

interface RecordedBlock {
  readonly height: number;
  readonly hash: string;
  readonly hex: string;
  readonly header_hex?: string;
}

describe('p2p replay of recorded blocks (Block bodies, protocol v2 and v1)', () => {
  const v2 = lines<RecordedBlock>('usernet_chain_blocks.jsonl');
  const v1 = lines<RecordedBlock>('usernet_chain_blocks_v1.jsonl');

  it('148 blocks in each version, heights 0..147', () => {
    assert.deepEqual(
      [v2.map((b) => b.height), v1.map((b) => b.height)],
      [Array.from({ length: 148 }, (_, i) => i), Array.from({ length: 148 }, (_, i) => i)],
    );
  });

  for (const [version, blocks] of [
    [2, v2],
    [1, v1],
  ] as const) {
    it(`v${version}: every Block body decodes, hashes to its recorded hash and re-encodes exactly`, () => {
      for (const b of blocks) {
        const bytes = hex(b.hex);
        const msg = decodeMessage(11, bytes, version, USER);
        assert.equal(msg.type, 'Block');
        if (msg.type !== 'Block') return;
        assert.equal(msg.block.header.height, BigInt(b.height));
        assert.equal(toHex(headerHash(msg.block.header, USER)), b.hash);
        assert.equal(
          toHex(encode(writeBlock, msg.block, version, USER)),
          b.hex,
          `height ${b.height}`,
        );
        if (b.header_hex !== undefined) assert.ok(b.hex.startsWith(b.header_hex));
      }
    });
  }

  it('v1 and v2 bytes of each block decode to the same block; they differ where kernels are', () => {
    let differing = 0;
    v2.forEach((b, i) => {
      const one = v1[i] as RecordedBlock;
      assert.deepStrictEqual(
        decode(readBlock, hex(one.hex), 1, USER, 'v1 block'),
        decode(readBlock, hex(b.hex), 2, USER, 'v2 block'),
      );
      if (one.hex !== b.hex) differing++;
    });
    // Genesis has no kernels; every other block has at least a coinbase kernel.
    assert.equal(differing, 147);
  });
});
