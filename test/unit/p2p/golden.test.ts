// Golden bytes of the request/control messages of the p2p note §13.2, for the three magics:
// encode gives exactly these bytes, and decoding them gives exactly the value.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toHex } from '../../../core/bytes.js';
import { CHAIN_PARAMS, type ChainType } from '../../../core/chain_type.js';
import { decodeFrameHeader } from '../../../core/p2p/frame.js';
import { decodeMessage, encodeFrame } from '../../../core/p2p/msg.js';
import type { P2pMessage } from '../../../core/p2p/types.js';
import { hex } from '../../support/crypto.js';

const DIFFICULTY = { cuckaroo: 0n, cuckatoo: 10n, randomx: 20n, progpow: 30n };
const DIFFICULTY_HEX =
  '0000000000000004' +
  '00' +
  '0000000000000000' +
  '01' +
  '000000000000000a' +
  '02' +
  '0000000000000014' +
  '03' +
  '000000000000001e';
const GENESIS = '454018a56d86e37611bdcabc7de670305c3f3dc9675e314b437f1adc29430851';
const UA_HEX = '000000000000000d4d572f4570696320342e302e30';
const H1 = '11'.repeat(32);
const H2 = '22'.repeat(32);
const ONION = 'http://2a6at2obto3uvkpkitqp4wxcg6u36qf534eucbskqciturczzc5suyid.onion:3413';

interface Golden {
  readonly msg: P2pMessage;
  /** Type byte and body length, as hex (the header without its magic). */
  readonly head: string;
  readonly body: string;
}

const GOLDENS: readonly Golden[] = [
  {
    msg: { type: 'Ping', totalDifficulty: DIFFICULTY, height: 5n, timestamp: 1_700_000_000n },
    head: '03000000000000003c',
    body: `${DIFFICULTY_HEX}0000000000000005000000006553f100`,
  },
  {
    msg: {
      type: 'Hand',
      version: 2,
      capabilities: 31,
      nonce: 0x0102030405060708n,
      totalDifficulty: DIFFICULTY,
      senderAddr: { ip: hex('00000000'), port: 3414 },
      receiverAddr: { ip: hex('cb007107'), port: 3414 },
      userAgent: 'MW/Epic 4.0.0',
      genesis: hex(GENESIS),
    },
    head: '01000000000000007f',
    body: `000000020000001f0102030405060708${DIFFICULTY_HEX}00000000000d5600cb0071070d56${UA_HEX}${GENESIS}`,
  },
  {
    msg: {
      type: 'Shake',
      version: 2,
      capabilities: 31,
      totalDifficulty: DIFFICULTY,
      userAgent: 'MW/Epic 4.0.0',
      genesis: hex(GENESIS),
    },
    head: '020000000000000069',
    body: `000000020000001f${DIFFICULTY_HEX}${UA_HEX}${GENESIS}`,
  },
  {
    msg: { type: 'GetPeerAddrs', capabilities: 31 },
    head: '050000000000000004',
    body: '0000001f',
  },
  {
    msg: {
      type: 'PeerAddrs',
      peers: [
        { ip: hex('cb007107'), port: 3414 },
        { ip: hex('20010db8000000000000000000000001'), port: 3414 },
      ],
    },
    head: '06000000000000001e',
    body: '0000000200cb0071070d560120010db80000000000000000000000010d56',
  },
  {
    msg: { type: 'GetHeaders', locator: [hex(H1), hex(H2)] },
    head: '070000000000000041',
    body: `02${H1}${H2}`,
  },
  {
    msg: { type: 'GetHeadersFastSync', locator: [hex(H1), hex(H2)], offset: 3 },
    head: '170000000000000042',
    body: `02${H1}${H2}03`,
  },
  { msg: { type: 'BanReason', reason: 'ManualBan' }, head: '120000000000000004', body: '00000005' },
  {
    msg: { type: 'TxHashSetRequest', hash: hex(H1), height: 2880n },
    head: '100000000000000028',
    body: `${H1}0000000000000b40`,
  },
  {
    msg: { type: 'TxHashSetArchive', hash: hex(H1), height: 2880n, bytes: 123_456n },
    head: '110000000000000030',
    body: `${H1}0000000000000b40000000000001e240`,
  },
  { msg: { type: 'OnionAddressRequest' }, head: '190000000000000000', body: '' },
  {
    msg: { type: 'OnionAddressResponse', address: ONION },
    head: '1a0000000000000052',
    body: `000000000000004a${Buffer.from(ONION, 'ascii').toString('hex')}`,
  },
];

const MAGICS: Readonly<Record<Exclude<ChainType, 'automated'>, string>> = {
  mainnet: '613d',
  floonet: '533b',
  usernet: '492b',
};

describe('p2p §13.2 golden bytes', () => {
  for (const [chain, magic] of Object.entries(MAGICS) as [ChainType, string][]) {
    const params = CHAIN_PARAMS[chain];
    for (const g of GOLDENS) {
      const expected = `${magic}${g.head}${g.body}`;
      it(`${chain} ${g.msg.type}: encodes to the golden bytes`, () => {
        assert.equal(toHex(encodeFrame(g.msg, 2, params)), expected);
      });
      it(`${chain} ${g.msg.type}: decodes to the exact value`, () => {
        const bytes = hex(expected);
        const h = decodeFrameHeader(bytes.subarray(0, 11), params);
        assert.deepEqual(h, { type: hex(g.head)[0], length: g.body.length / 2, known: true });
        assert.deepStrictEqual(decodeMessage(h.type, bytes.subarray(11), 2, params), g.msg);
      });
    }
  }

  it('the Ping body is 60 bytes, the Hand 127, the Shake 105 (the note’s sizes)', () => {
    const sizes = GOLDENS.filter((g) => ['Ping', 'Hand', 'Shake'].includes(g.msg.type)).map(
      (g) => g.body.length / 2,
    );
    assert.deepEqual(sizes, [60, 127, 105]);
  });
});
