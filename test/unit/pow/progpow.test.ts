// ProgPoW 0.9.2 as Epic uses it (pow reference §6, vectors §10.4): legacy Keccak, Keccak-f800,
// ethash sizes / seeds / cDAG, merge and math, the twelve 0.9.2 rows, Epic's crate test, and the
// verdicts a verifier relies on. Builds three epoch caches (0, 1, 2): a few seconds each.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keccak_256, keccak_512 } from '@noble/hashes/sha3.js';
import { fromHex, toHex } from '../../../core/bytes.js';
import { hashDifficulty } from '../../../core/consensus/difficulty.js';
import {
  buildEpochCache,
  cacheSize,
  datasetSize,
  type EpochCache,
  epochOf,
  progpowHash,
  progpowHeaderHash,
  progpowLightVerify,
  progpowVerifyPrePow,
  seedHash,
} from '../../../core/pow/progpow/index.js';
import { keccakF800, progpowKeccak } from '../../../core/pow/progpow/keccak_f800.js';
import { keccak512Node } from '../../../core/pow/progpow/keccak_f1600.js';
import { Kiss99 } from '../../../core/pow/progpow/kiss99.js';
import { math, merge, mulHi } from '../../../core/pow/progpow/ops.js';
import { bytesLE, wordsLE } from '../../../core/pow/progpow/words.js';

const hex = (s: string): Uint8Array => {
  const b = fromHex(s);
  if (b === null) throw new Error(`bad hex ${s}`);
  return b;
};

const caches = new Map<number, EpochCache>();
function cacheOf(height: number | bigint): EpochCache {
  const epoch = epochOf(height);
  let c = caches.get(epoch);
  if (c === undefined) {
    const start = performance.now();
    c = buildEpochCache(epoch);
    console.log(`epoch ${epoch} cache built in ${(performance.now() - start).toFixed(0)} ms`);
    caches.set(epoch, c);
  }
  return c;
}

describe('legacy Keccak (ethash padding, not SHA-3)', () => {
  it('keccak256 of the empty string is the Ethereum value', () => {
    assert.equal(
      toHex(keccak_256(new Uint8Array(0))),
      'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
    );
  });

  it('the node keccak512 (own Keccak-f1600) matches a generic legacy keccak512', () => {
    const words = new Uint32Array(16);
    let rnd = new Kiss99(1, 2, 3, 4);
    for (let trial = 0; trial < 50; trial++) {
      for (let i = 0; i < 16; i++) words[i] = rnd.next();
      const out = new Uint32Array(16);
      keccak512Node(words, 0, out, 0);
      assert.equal(toHex(bytesLE(out)), toHex(keccak_512(bytesLE(words))));
    }
    rnd = new Kiss99(9, 9, 9, 9);
    const inPlace = Uint32Array.from({ length: 32 }, () => rnd.next());
    const expected = keccak_512(bytesLE(inPlace.subarray(16)));
    keccak512Node(inPlace, 16, inPlace, 16);
    assert.equal(toHex(bytesLE(inPlace.subarray(16))), toHex(expected));
  });
});

describe('Keccak-f800 (ProgPoW hash, 22 rounds, no padding)', () => {
  it('K(0^32, 0, 0, 0^8) first 8 words = 5dd431e5…', () => {
    const s = progpowKeccak(new Uint32Array(8), 0, 0, null);
    assert.equal(
      toHex(bytesLE(s, 8)),
      '5dd431e5fbc604f499bfa0232f45f8f142d0ff5178f539e5a7800bf0643697af',
    );
  });

  it('the 64-bit seed of the same state is 0x5dd431e5fbc604f4', () => {
    const s = progpowKeccak(new Uint32Array(8), 0, 0, null);
    const swap = (v: number) => BigInt(`0x${toHex(bytesLE(Uint32Array.of(v)))}`);
    assert.equal((swap(s[0]) << 32n) | swap(s[1]), 0x5dd431e5fbc604f4n);
  });

  it('a different round count gives a different state', () => {
    const a = new Uint32Array(25);
    const b = new Uint32Array(25);
    keccakF800(a, 22);
    keccakF800(b, 24);
    assert.notEqual(toHex(bytesLE(a)), toHex(bytesLE(b)));
  });
});

describe('ethash sizes and seeds', () => {
  const E = 30_000;
  it('cache sizes', () => {
    const rows: Array<[number, number]> = [
      [0, 16776896],
      [1, 16776896],
      [E - 1, 16776896],
      [E, 16907456],
      [E + 1, 16907456],
      [2046 * E, 284950208],
      [2047 * E, 285081536],
      [2048 * E - 1, 285081536],
      [50 * E, 23330752],
      [100 * E, 29882816],
      [150 * E, 36436672],
    ];
    for (const [height, size] of rows) assert.equal(cacheSize(epochOf(height)), size, `${height}`);
  });

  it('dataset sizes', () => {
    const rows: Array<[number, number]> = [
      [0, 1073739904],
      [1, 1073739904],
      [E - 1, 1073739904],
      [E, 1082130304],
      [E + 1, 1082130304],
      [2046 * E, 18236833408],
      [2047 * E, 18245220736],
      [50 * E, 1493171584],
      [100 * E, 1912601216],
      [150 * E, 2332032128],
    ];
    for (const [height, size] of rows)
      assert.equal(datasetSize(epochOf(height)), size, `${height}`);
  });

  it('seed hash of block 0 is zero, of block 486382 is f1af2c86…', () => {
    assert.equal(toHex(seedHash(epochOf(0))), '00'.repeat(32));
    const expected = [
      241, 175, 44, 134, 39, 121, 245, 239, 228, 236, 43, 160, 195, 152, 46, 7, 199, 5, 253, 147,
      241, 206, 98, 43, 3, 104, 17, 40, 192, 79, 106, 162,
    ];
    assert.deepEqual(Array.from(seedHash(epochOf(486382))), expected);
  });

  it('epochs are height / 30000 and refuse absurd heights', () => {
    assert.equal(epochOf(29_999), 0);
    assert.equal(epochOf(30_000n), 1);
    assert.throws(() => epochOf(2n ** 63n), RangeError);
    assert.throws(() => epochOf(-1), RangeError);
    assert.throws(() => cacheSize(-1), RangeError);
  });
});

describe('merge and math', () => {
  it('merge(a, b, r = i)', () => {
    const rows = [
      [1000000, 101, 33000101],
      [2000000, 102, 66003366],
      [3000000, 103, 6000103],
      [4000000, 104, 2000104],
      [1000000, 0, 33000000],
      [2000000, 0, 66000000],
      [3000000, 0, 6000000],
      [4000000, 0, 2000000],
    ];
    for (const [i, [a, b, want]] of rows.entries()) assert.equal(merge(a, b, i), want, `row ${i}`);
  });

  it('math(a, b, r = i) for i = 0..21', () => {
    const rows = [
      [20, 22, 42],
      [70000, 80000, 1305032704],
      [70000, 80000, 1],
      [1, 2, 1],
      [3, 10000, 196608],
      [3, 0, 3],
      [3, 6, 2],
      [3, 6, 7],
      [3, 6, 5],
      [0, 0xffffffff, 32],
      [3 << 13, 1 << 5, 3],
      [22, 20, 42],
      [80000, 70000, 1305032704],
      [80000, 70000, 1],
      [2, 1, 1],
      [10000, 3, 80000],
      [0, 3, 0],
      [6, 3, 2],
      [6, 3, 7],
      [6, 3, 5],
      [0, 0xffffffff, 32],
      [3 << 13, 1 << 5, 3],
    ];
    for (const [i, [a, b, want]] of rows.entries()) assert.equal(math(a, b, i), want, `row ${i}`);
  });

  it('high product, rotations by 0 and 32, merge rotations never by 0', () => {
    assert.equal(mulHi(0xffffffff, 0xffffffff), 0xfffffffe);
    assert.equal(mulHi(0x80000000, 2), 1);
    assert.equal(math(0x80000001, 32, 4), 0x80000001);
    assert.equal(math(0x80000001, 33, 5), 0xc0000000);
    assert.equal(merge(0x80000000, 0, 2 + (31 << 16)), 1);
    assert.equal(merge(1, 0, 3), 0x80000000);
  });
});

describe('cDAG', () => {
  it('epoch 0, first 20 words', () => {
    const expected = [
      690150178, 1181503948, 2248155602, 2118233073, 2193871115, 1791778428, 1067701239, 724807309,
      530799275, 3480325829, 3899029234, 1998124059, 2541974622, 1100859971, 1297211151, 3268320000,
      2217813733, 2690422980, 3172863319, 2651064309,
    ];
    const c = cacheOf(0);
    assert.equal(c.cdag.length, 4096);
    assert.deepEqual(Array.from(c.cdag.subarray(0, 20)), expected);
  });
});

// progpow-rust pp_light/res/progpow_testvectors.json: block, header hash, nonce, mix, final.
const ROWS: ReadonlyArray<readonly [number, string, string, string, string]> = [
  [
    0,
    '00'.repeat(32),
    '0000000000000000',
    'faeb1be51075b03a4ff44b335067951ead07a3b078539ace76fd56fc410557a3',
    '63155f732f2bf556967f906155b510c917e48e99685ead76ea83f4eca03ab12b',
  ],
  [
    49,
    '63155f732f2bf556967f906155b510c917e48e99685ead76ea83f4eca03ab12b',
    '0000000006ff2c47',
    'c789c1180f890ec555ff42042913465481e8e6bc512cb981e1c1108dc3f2227d',
    '9e7248f20914913a73d80a70174c331b1d34f260535ac3631d770e656b5dd922',
  ],
  [
    50,
    '9e7248f20914913a73d80a70174c331b1d34f260535ac3631d770e656b5dd922',
    '00000000076e482e',
    'c7340542c2a06b3a7dc7222635f7cd402abf8b528ae971ddac6bbe2b0c7cb518',
    'de37e1824c86d35d154cf65a88de6d9286aec4f7f10c3fc9f0fa1bcc2687188d',
  ],
  [
    99,
    'de37e1824c86d35d154cf65a88de6d9286aec4f7f10c3fc9f0fa1bcc2687188d',
    '000000003917afab',
    'f5e60b2c5bfddd136167a30cbc3c8dbdbd15a512257dee7964e0bc6daa9f8ba7',
    'ac7b55e801511b77e11d52e9599206101550144525b5679f2dab19386f23dcce',
  ],
  [
    29950,
    'ac7b55e801511b77e11d52e9599206101550144525b5679f2dab19386f23dcce',
    '005d409dbc23a62a',
    '07393d15805eb08ee6fc6cb3ad4ad1010533bd0ff92d6006850246829f18fd6e',
    'e43d7e0bdc8a4a3f6e291a5ed790b9fa1a0948a2b9e33c844888690847de19f5',
  ],
  [
    29999,
    'e43d7e0bdc8a4a3f6e291a5ed790b9fa1a0948a2b9e33c844888690847de19f5',
    '005db5fa4c2a3d03',
    '7551bddf977491da2f6cfc1679299544b23483e8f8ee0931c4c16a796558a0b8',
    'd34519f72c97cae8892c277776259db3320820cb5279a299d0ef1e155e5c6454',
  ],
  [
    30000,
    'd34519f72c97cae8892c277776259db3320820cb5279a299d0ef1e155e5c6454',
    '005db8607994ff30',
    'f1c2c7c32266af9635462e6ce1c98ebe4e7e3ecab7a38aaabfbf2e731e0fbff4',
    '8b6ce5da0b06d18db7bd8492d9e5717f8b53e7e098d9fef7886d58a6e913ef64',
  ],
  [
    30049,
    '8b6ce5da0b06d18db7bd8492d9e5717f8b53e7e098d9fef7886d58a6e913ef64',
    '005e2e215a8ca2e7',
    '57fe6a9fbf920b4e91deeb66cb0efa971e08229d1a160330e08da54af0689add',
    'c2c46173481b9ced61123d2e293b42ede5a1b323210eb2a684df0874ffe09047',
  ],
  [
    30050,
    'c2c46173481b9ced61123d2e293b42ede5a1b323210eb2a684df0874ffe09047',
    '005e30899481055e',
    'ba30c61cc5a2c74a5ecaf505965140a08f24a296d687e78720f0b48baf712f2d',
    'ea42197eb2ba79c63cb5e655b8b1f612c5f08aae1a49ff236795a3516d87bc71',
  ],
  [
    30099,
    'ea42197eb2ba79c63cb5e655b8b1f612c5f08aae1a49ff236795a3516d87bc71',
    '005ea6aef136f88b',
    'cfd5e46048cd133d40f261fe8704e51d3f497fc14203ac6a9ef6a0841780b1cd',
    '49e15ba4bf501ce8fe8876101c808e24c69a859be15de554bf85dbc095491bd6',
  ],
  [
    59950,
    '49e15ba4bf501ce8fe8876101c808e24c69a859be15de554bf85dbc095491bd6',
    '02ebe0503bd7b1da',
    '21511fbaa31fb9f5fc4998a754e97b3083a866f4de86fa7500a633346f56d773',
    'f5c50ba5c0d6210ddb16250ec3efda178de857b2b1703d8d5403bd0f848e19cf',
  ],
  [
    59999,
    'f5c50ba5c0d6210ddb16250ec3efda178de857b2b1703d8d5403bd0f848e19cf',
    '02edb6275bd221e3',
    '653eda37d337e39d311d22be9bbd3458d3abee4e643bee4a7280a6d08106ef98',
    '341562d10d4afb706ec2c8d5537cb0c810de02b4ebb0a0eea5ae335af6fb2e88',
  ],
];

describe('ProgPoW 0.9.2 test vectors (twelve rows)', () => {
  for (const [block, header, nonce, mix, final] of ROWS) {
    it(`block ${block}, nonce ${nonce}`, () => {
      const r = progpowHash(cacheOf(block), hex(header), block, BigInt(`0x${nonce}`));
      assert.equal(toHex(r.mix), mix);
      assert.equal(toHex(r.final), final);
    });
  }
});

describe("Epic's crate test (progpow-rust test_compute_cpu)", () => {
  it('height 20, nonce 10123012301, zero header hash', () => {
    const r = progpowHash(cacheOf(20), new Uint8Array(32), 20n, 10123012301n);
    assert.deepEqual(
      Array.from(wordsLE(r.mix)),
      [
        1067276040, 109748694, 1270962088, 3616890847, 2528371908, 2524623649, 1191460869,
        2529877558,
      ],
    );
    assert.equal(toHex(r.mix), '08579d3fd6a18a06a857c14bdf5f95d7c4e4b39621b37a960540044736deca96');
    assert.equal(
      toHex(r.final),
      '24703b12ff915d62a91a11f636b57c8d106a1866737fc022856daf93445d179d',
    );
    assert.equal(hashDifficulty(r.final), 7n);
  });
});

describe('light verification verdicts', () => {
  const [block, header, nonce, mix, final] = ROWS[1] as (typeof ROWS)[number];
  const n = BigInt(`0x${nonce}`);

  it('accepts the right mix and returns the final hash', () => {
    const v = progpowLightVerify(cacheOf(block), hex(header), block, n, hex(mix));
    assert.equal(v.ok, true);
    assert.equal(toHex(v.final), final);
  });

  it('rejects the mix with any one bit flipped (first, middle and last bit)', () => {
    for (const bit of [0, 131, 255]) {
      const bad = hex(mix);
      bad[bit >> 3] ^= 1 << (bit & 7);
      assert.equal(progpowLightVerify(cacheOf(block), hex(header), block, n, bad).ok, false);
    }
  });

  it('rejects a proof replayed with another nonce or header', () => {
    assert.equal(
      progpowLightVerify(cacheOf(block), hex(header), block, n + 1n, hex(mix)).ok,
      false,
    );
    const other = hex(header);
    other[31] ^= 0x80;
    assert.equal(progpowLightVerify(cacheOf(block), other, block, n, hex(mix)).ok, false);
  });

  it('refuses a cache of another epoch and malformed inputs', () => {
    assert.throws(() => progpowHash(cacheOf(0), hex(header), 30_000, n), RangeError);
    assert.throws(() => progpowHash(cacheOf(0), new Uint8Array(31), 0, n), RangeError);
    assert.throws(() => progpowHash(cacheOf(0), hex(header), 0, 2n ** 64n), RangeError);
  });

  it('pre-pow entry: keccak256 of all but the 8 nonce bytes, nonce read big-endian', () => {
    const prePow = Uint8Array.from({ length: 282 }, (_, i) => (i * 7) & 0xff);
    const nonceBytes = prePow.subarray(274);
    new DataView(nonceBytes.buffer, 274, 8).setBigUint64(0, 0x0123456789abcdefn, false);
    const headerHash = progpowHeaderHash(prePow);
    assert.equal(toHex(headerHash), toHex(keccak_256(prePow.subarray(0, 274))));
    const direct = progpowHash(cacheOf(77), headerHash, 77, 0x0123456789abcdefn);
    const v = progpowVerifyPrePow(cacheOf(77), prePow, 77n, direct.mix);
    assert.equal(v.ok, true);
    assert.equal(toHex(v.final), toHex(direct.final));
  });
});
