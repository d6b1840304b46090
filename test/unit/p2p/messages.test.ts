// Per-type rules of the message codecs: list limits at the limit and one past, the strict
// readings where Epic is lenient (docs/decisions.md), protocol versions, and exact bytes of the
// types neither the goldens nor the recordings hold.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { concatBytes, toHex } from '../../../core/bytes.js';
import { CHAIN_PARAMS } from '../../../core/chain_type.js';
import { decodeMessage, encodeFrame, encodeMessage } from '../../../core/p2p/msg.js';
import { truncateCapabilities } from '../../../core/p2p/primitives.js';
import { BAN_REASONS, type MsgOf, type P2pMessage } from '../../../core/p2p/types.js';
import { hex } from '../../support/crypto.js';
import { p2pError, serError } from '../../support/p2p.js';
import { SHARED_VECTORS } from '../../support/paths.js';

const MAIN = CHAIN_PARAMS.mainnet;
const USER = CHAIN_PARAMS.usernet;

function u32(n: number): string {
  return n.toString(16).padStart(8, '0');
}

function recorded(file: string, type: number): string {
  const line = readFileSync(join(SHARED_VECTORS, 'p2p', file), 'utf8')
    .split('\n')
    .find((l) => l.includes(`"type": ${type},`));
  assert.ok(line);
  return (JSON.parse(line) as { hex: string }).hex.slice(22);
}

const IPV4 = '00cb0071070d56';

describe('p2p message limits', () => {
  it('PeerAddrs: 256 addresses decode, 257 is TooLargeReadErr before any is read', () => {
    const body = hex(u32(256) + IPV4.repeat(256));
    const m = decodeMessage(6, body, 2, MAIN) as MsgOf<'PeerAddrs'>;
    assert.equal(m.peers.length, 256);
    assert.equal(toHex(encodeMessage(m, 2, MAIN)), toHex(body));
    assert.throws(() => decodeMessage(6, hex(u32(257)), 2, MAIN), serError('TooLargeReadErr'));
    const tooMany: P2pMessage = { type: 'PeerAddrs', peers: [...m.peers, m.peers[0] as never] };
    assert.throws(() => encodeMessage(tooMany, 2, MAIN), serError('TooLargeReadErr'));
  });

  it('a count larger than the bytes present is CountError, not an allocation', () => {
    assert.throws(() => decodeMessage(6, hex(u32(256)), 2, MAIN), serError('CountError'));
    assert.throws(() => decodeMessage(7, hex('14'), 2, MAIN), serError('CountError'));
    assert.throws(() => decodeMessage(9, hex('0200'), 2, MAIN), serError('CountError'));
  });

  it('locators: 20 hashes decode, 21 are TooLargeReadErr (GetHeaders and GetHeadersFastSync)', () => {
    const twenty = `14${'ab'.repeat(32 * 20)}`;
    const get = decodeMessage(7, hex(twenty), 2, MAIN) as MsgOf<'GetHeaders'>;
    assert.equal(get.locator.length, 20);
    const fast = decodeMessage(23, hex(`${twenty}07`), 2, MAIN) as MsgOf<'GetHeadersFastSync'>;
    assert.deepEqual([fast.locator.length, fast.offset], [20, 7]);
    const over = `15${'ab'.repeat(32 * 21)}`;
    assert.throws(() => decodeMessage(7, hex(over), 2, MAIN), serError('TooLargeReadErr'));
    assert.throws(() => decodeMessage(23, hex(`${over}00`), 2, MAIN), serError('TooLargeReadErr'));
  });

  it('Headers/FastHeaders: 512 recorded headers decode and re-encode, 513 is TooLargeReadErr', () => {
    const fast = recorded('usernet_sync_capture.jsonl', 24);
    const first = decodeMessage(24, hex(fast), 2, USER) as MsgOf<'FastHeaders'>;
    const header = first.headers[0];
    assert.ok(header);
    const full: P2pMessage = { type: 'Headers', headers: Array(512).fill(header) };
    const body = encodeMessage(full, 2, USER);
    assert.deepStrictEqual(decodeMessage(9, body, 2, USER), full);
    assert.deepStrictEqual(decodeMessage(24, body, 2, USER), { ...full, type: 'FastHeaders' });
    assert.throws(() => decodeMessage(9, hex('0201'), 2, USER), serError('TooLargeReadErr'));
    assert.throws(() => decodeMessage(24, hex('ffff'), 2, USER), serError('TooLargeReadErr'));
  });
});

describe('p2p message readings', () => {
  it('BanReason: reasons 0..7 are a 4-byte BE i32; 8, -1 and ff000000 are CorruptedData', () => {
    BAN_REASONS.forEach((reason, code) => {
      const body = hex(u32(code));
      assert.deepStrictEqual(decodeMessage(18, body, 2, MAIN), { type: 'BanReason', reason });
      assert.equal(toHex(encodeMessage({ type: 'BanReason', reason }, 2, MAIN)), u32(code));
    });
    for (const bad of ['00000008', 'ffffffff', 'ff000000']) {
      assert.throws(() => decodeMessage(18, hex(bad), 2, MAIN), serError('CorruptedData'));
    }
  });

  it('BanReason shorter than 4 bytes is IOErr (Epic reads it as None)', () => {
    assert.throws(() => decodeMessage(18, hex('0000'), 2, MAIN), serError('IOErr'));
    assert.throws(() => decodeMessage(18, new Uint8Array(0), 2, MAIN), serError('IOErr'));
  });

  it('a peer address tag other than 0 and 1 is CorruptedData (Epic reads it as IPv6)', () => {
    const v6 = `01${'00'.repeat(15)}01 0d56`.replace(' ', '');
    const ok = decodeMessage(6, hex(`${u32(1)}${v6}`), 2, MAIN) as MsgOf<'PeerAddrs'>;
    assert.deepStrictEqual(ok.peers, [{ ip: hex(`${'00'.repeat(15)}01`), port: 3414 }]);
    const bad = hex(`${u32(1)}02${v6.slice(2)}`);
    assert.throws(() => decodeMessage(6, bad, 2, MAIN), serError('CorruptedData'));
  });

  it('capabilities keep every bit as sent; truncateCapabilities keeps 0x3f', () => {
    const m = decodeMessage(5, hex('ffffffff'), 2, MAIN) as MsgOf<'GetPeerAddrs'>;
    assert.equal(m.capabilities, 0xffff_ffff);
    assert.equal(toHex(encodeMessage(m, 2, MAIN)), 'ffffffff');
    assert.deepEqual(
      [truncateCapabilities(0xff), truncateCapabilities(0x80), truncateCapabilities(0x1f)],
      [0x3f, 0, 0x1f],
    );
  });

  it('a user agent or onion address that is not UTF-8 is CorruptedData', () => {
    assert.throws(
      () => decodeMessage(26, hex('0000000000000001ff'), 2, MAIN),
      serError('CorruptedData'),
    );
    const shake =
      `${u32(2)}${u32(31)}0000000000000000 0000000000000001c3${'00'.repeat(32)}`.replace(' ', '');
    assert.throws(() => decodeMessage(2, hex(shake), 2, MAIN), serError('CorruptedData'));
  });

  it('encoders refuse values that have no wire form', () => {
    const badHash: P2pMessage = { type: 'GetBlock', hash: new Uint8Array(31) };
    assert.throws(() => encodeMessage(badHash, 2, MAIN), serError('CorruptedData'));
    const badIp: P2pMessage = { type: 'PeerAddrs', peers: [{ ip: new Uint8Array(5), port: 1 }] };
    assert.throws(() => encodeMessage(badIp, 2, MAIN), serError('CorruptedData'));
    const big: P2pMessage = { type: 'OnionAddressResponse', address: 'x'.repeat(1017) };
    assert.equal(encodeFrame({ ...big, address: 'x'.repeat(1016) }, 2, MAIN).length, 11 + 1024);
    assert.throws(() => encodeFrame(big, 2, MAIN), p2pError('TooLarge'));
  });
});

describe('p2p exact bytes of the remaining types', () => {
  const txBody = recorded('usernet_oracle_phase_capture.jsonl', 15);

  it('Error and KernelDataRequest are a bare header', () => {
    assert.equal(toHex(encodeFrame({ type: 'Error' }, 2, MAIN)), '613d000000000000000000');
    assert.equal(
      toHex(encodeFrame({ type: 'KernelDataRequest' }, 2, USER)),
      '492b150000000000000000',
    );
  });

  it('Pong and GetBlock', () => {
    const pong: P2pMessage = {
      type: 'Pong',
      totalDifficulty: { randomx: 2n },
      height: 1n,
      timestamp: -1n,
    };
    const pongHex = `492b040000000000000021${'0000000000000001'}02${'0000000000000002'}0000000000000001ffffffffffffffff`;
    assert.equal(toHex(encodeFrame(pong, 2, USER)), pongHex);
    assert.deepStrictEqual(decodeMessage(4, hex(pongHex).subarray(11), 2, USER), pong);
    const get: P2pMessage = { type: 'GetBlock', hash: hex('ab'.repeat(32)) };
    assert.equal(toHex(encodeFrame(get, 2, USER)), `492b0a0000000000000020${'ab'.repeat(32)}`);
  });

  it('StemTransaction carries the recorded Transaction body unchanged', () => {
    const tx = decodeMessage(15, hex(txBody), 2, USER) as MsgOf<'Transaction'>;
    const stem: P2pMessage = { type: 'StemTransaction', tx: tx.tx };
    const frame = encodeFrame(stem, 2, USER);
    assert.equal(
      toHex(frame),
      `492b0e${(txBody.length / 2).toString(16).padStart(16, '0')}${txBody}`,
    );
    assert.deepStrictEqual(decodeMessage(14, frame.subarray(11), 2, USER), stem);
  });

  it('protocol v1 writes the Plain kernel with an 8-byte zero lock height; both decode alike', () => {
    const v2 = hex(txBody);
    const tx = decodeMessage(15, v2, 2, USER);
    const v1 = encodeMessage(tx, 1, USER);
    // The only kernel ends the body: excess (33) and signature (64) follow its features.
    const at = v2.length - 97;
    assert.equal(
      toHex(v1),
      toHex(concatBytes(v2.subarray(0, at), new Uint8Array(8), v2.subarray(at))),
    );
    assert.deepStrictEqual(decodeMessage(15, v1, 1, USER), tx);
    // Read as v2, the v1 bytes leave the lock height's 8 bytes over.
    assert.throws(() => decodeMessage(15, v1, 2, USER), serError('UnexpectedData'));
  });
});
