// The native RandomX addon (native/randomx) against Epic's seven vectors (reference §10.3):
// every Epic-fork output must come out exactly, and none of the tevador v1.1.10 outputs of the
// same table may (they would mean the wrong variant was built). Skips with a message when the
// addon has not been compiled (`cd native/randomx && node-gyp rebuild`).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import {
  ADDON_RELATIVE,
  findRandomXAddon,
  loadRandomXAddon,
  type RandomXAddon,
} from '../../../jobs/randomx_addon.js';

interface RandomXInternals {
  blake2b(data: Uint8Array, outLen: number): Uint8Array;
  argon2d(
    password: Uint8Array,
    salt: Uint8Array,
    secret: Uint8Array,
    ad: Uint8Array,
    lanes: number,
    passes: number,
    memoryKiB: number,
    tagLen: number,
  ): Uint8Array;
  aesRound(state: Uint8Array, key: Uint8Array, decrypt: boolean): Uint8Array;
  datasetItem(key: Uint8Array, item: number): Uint8Array;
}

/** The addon with its test-only entry points to the pieces (BLAKE2b, Argon2d, AES, dataset). */
type TestedAddon = RandomXAddon & { readonly internals: RandomXInternals };

const addon = loadRandomXAddon() as TestedAddon | null;
const SKIP = addon
  ? false
  : `RandomX addon not built (${ADDON_RELATIVE} missing): run "node native/randomx/build.mjs"`;

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const ascii = (s: string): Uint8Array => new TextEncoder().encode(s);
const filled = (n: number, v: number): Uint8Array => new Uint8Array(n).fill(v);
const padded = (s: string, n: number): Uint8Array => {
  const out = new Uint8Array(n);
  out.set(ascii(s));
  return out;
};

interface Vector {
  name: string;
  key: Uint8Array;
  input: Uint8Array;
  epic: string;
  v1110: string;
}

const SED = 'sed do eiusmod tempor incididunt ut labore et dolore magna aliqua';

// Ordered so that vectors sharing a key are adjacent: each key change costs a cache build.
const VECTORS: Vector[] = [
  {
    name: 'key 32×0x00, input 128×0x00 (randomx-rust test_verify)',
    key: filled(32, 0),
    input: filled(128, 0),
    epic: '3adb57cd3a05db9dd2139472dbbf647a3133e04353b8324969ff3ae62314e8f4',
    v1110: 'aeab0ad5852c53042ad48c00eb00faf0805f2908f8785fd27c693387b25d554f',
  },
  {
    name: 'key 32×0x14, input 128×0x00 (randomx-rust test_swap_dataset)',
    key: filled(32, 0x14),
    input: filled(128, 0),
    epic: 'dca3dc1b1b602e14b1a87d85aa48ca1390af7013ba5c3c3141c4b2aeb1f52e20',
    v1110: '7f34bce2d0cbb798b20d26cbf56ad60488301ee58e38c6172b8b841722f4ec50',
  },
  {
    name: 'key 32×0x01, "Hello, RandomX!" zero-padded to 128',
    key: filled(32, 0x01),
    input: padded('Hello, RandomX!', 128),
    epic: 'f996c6ab13c2fe278c0ab6743d5eef5e14367d3b01838b4103685222a69f49bc',
    v1110: '30a153b1236bf1fa944e104563233cddf2d8d24a0158b05c74bf40fa9f9bb2b2',
  },
  {
    name: '"test key 000" / "This is a test"',
    key: ascii('test key 000'),
    input: ascii('This is a test'),
    epic: '207d7cedf2a16590bd33d758e413ad129ce9888e05417984f46296252a7ba3d0',
    v1110: '639183aae1bf4c9a35884cb46b09cad9175f04efd7684e7262a0ac1c2f0b4e3f',
  },
  {
    name: '"test key 000" / "Lorem ipsum dolor sit amet"',
    key: ascii('test key 000'),
    input: ascii('Lorem ipsum dolor sit amet'),
    epic: '76dd2da840d56d38153e0beaca33e7f862c5ead91a052380d99f3a62bf84579b',
    v1110: '300a0adb47603dedb42228ccb2b211104f4da45af709cd7547cd049e9489c969',
  },
  {
    name: '"test key 000" / "sed do …"',
    key: ascii('test key 000'),
    input: ascii(SED),
    epic: '109f6a405efe09d302336dce4389127e33aa62d4c782aca7797a628e87839a61',
    v1110: 'c36d4ed4191e617309867ed66a443be4075014e2b061bcdaf9ce7b721d2b77a8',
  },
  {
    name: '"test key 001" / "sed do …"',
    key: ascii('test key 001'),
    input: ascii(SED),
    epic: '3cbb82edf9541ab80233cdc47384cea719c8567a8bbaca8f3ff038488ce9c16c',
    v1110: 'e9ff4503201c0c2cca26d285c93ae883f9b1d30c9eb240b820756f2d5a7905fc',
  },
];

// tevador v1.1.10 rebuilt with Epic's frequencies, first row (reference §10.3).
const V1110_WITH_EPIC_FREQUENCIES =
  '8db3eb2821672a37f253733d0c97c46a461a17fb1e43fd9f84c1917c92c682e3';

/** A 128-bit register value printed most significant byte first → bytes in memory order. */
const xmm = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h, 'hex')).reverse();

describe('native RandomX pieces with published vectors', { skip: SKIP }, () => {
  const internals = () => (addon as TestedAddon).internals;

  it('BLAKE2b: RFC 7693 appendix A ("abc", 64 bytes) and the 32-byte digest', () => {
    assert.equal(
      hex(internals().blake2b(ascii('abc'), 64)),
      'ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1' +
        '7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923',
    );
    assert.equal(
      hex(internals().blake2b(ascii('abc'), 32)),
      'bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319',
    );
  });

  it('Argon2d: RFC 9106 §5.1 test vector', () => {
    const tag = internals().argon2d(
      filled(32, 1),
      filled(16, 2),
      filled(8, 3),
      filled(12, 4),
      4,
      3,
      32,
      32,
    );
    assert.equal(hex(tag), '512b391b6f1162975371d30919734294f868e3be3984f3c1a13a4db9fabe4acb');
  });

  it('AES rounds: the AESENC/AESDEC example of the Intel AES-NI white paper', () => {
    const state = xmm('7b5b54657374566563746f725d53475d');
    const key = xmm('48692853686179295b477565726f6e5d');
    assert.equal(
      hex(internals().aesRound(state, key, false)),
      hex(xmm('a8311c2f9fdba3c58b104b58ded7e595')),
    );
    assert.equal(
      hex(internals().aesRound(state, key, true)),
      hex(xmm('138ac342faea2787b58eb95eb730392a')),
    );
  });

  it('AES generator constants derive from BLAKE2b as the spec states', () => {
    // AesGenerator1R key0 and AesHash1R state0 (spec §3.2, §3.4), first 16 bytes of the hashes.
    const k = hex(internals().blake2b(ascii('RandomX AesGenerator1R keys'), 64)).slice(0, 32);
    assert.equal(k, '53a5ac6d096671622b55b5db1749f4b4');
    const s = hex(internals().blake2b(ascii('RandomX AesHash1R state'), 64)).slice(0, 32);
    assert.equal(s, '0d2cb592de56a89f47db82ccad3a98d7');
  });
});

describe('native RandomX (Epic v1.0.3 variant)', { skip: SKIP }, () => {
  const rx = addon as TestedAddon;
  const results = new Map<string, string>();

  it('reports the variant it implements', () => {
    assert.equal(rx.variant, 'epic-randomx-v1.0.3');
  });

  for (const v of VECTORS) {
    it(`reproduces the Epic vector: ${v.name}`, async () => {
      const got = hex(await rx.hash(v.key, v.input));
      results.set(v.name, got);
      assert.equal(got, v.epic);
    });
  }

  it('produces none of the tevador v1.1.10 outputs', () => {
    assert.equal(results.size, VECTORS.length, 'the vector tests must run first');
    for (const v of VECTORS) {
      const got = results.get(v.name);
      assert.notEqual(got, v.v1110, `${v.name} gave the v1.1.10 output`);
      assert.notEqual(
        got,
        V1110_WITH_EPIC_FREQUENCIES,
        `${v.name} gave v1.1.10-with-Epic-frequencies`,
      );
    }
  });

  it('keeps the current and the previous key, most recent first', () => {
    const keys = rx.cachedKeys().map(hex);
    assert.deepEqual(keys, [hex(ascii('test key 001')), hex(ascii('test key 000'))]);
  });

  it('computes dataset items (SuperscalarHash over the cache) as the Epic fork does', () => {
    // Recorded from a build of EpicCash/randomx 04b0df3, key "test key 000".
    const key = ascii('test key 000');
    const items: Array<[number, string]> = [
      [
        0,
        'db22e25aa8880568f416ff903dc1c991a8b4791436580c2cb778ed6c8ca3f726' +
          '554337312b554ddbd112d287fed97dffb96e1fd48e0e983671f2d82ae058f87f',
      ],
      [
        34078718,
        '5876a62e54e6a58474034eb7e299bc0381b1b34a491393dee4ff84db23426074' +
          'bd0fe9213f85bcc252a9613369caeea2384c7d4622cd88f714a7e9a74d26a2f1',
      ],
    ];
    for (const [item, want] of items) assert.equal(hex(rx.internals.datasetItem(key, item)), want);
  });

  it('hashSync agrees with hash, and parallel hashes on one cache agree', async () => {
    const v = VECTORS[6] as Vector;
    assert.equal(hex(rx.hashSync(v.key, v.input)), v.epic);
    const other = ascii('another input');
    const [a, b] = await Promise.all([rx.hash(v.key, other), rx.hash(v.key, other)]);
    assert.equal(hex(a), hex(b));
    assert.notEqual(hex(a), v.epic);
  });

  it('is usable from a worker thread sharing the process-wide cache', async () => {
    const v = VECTORS[6] as Vector;
    const source = `
      const { parentPort, workerData } = require('node:worker_threads');
      const rx = require(workerData.path);
      const out = rx.hashSync(Uint8Array.from(workerData.key), Uint8Array.from(workerData.input));
      parentPort.postMessage(Buffer.from(out).toString('hex'));
    `;
    const worker = new Worker(source, {
      eval: true,
      workerData: { path: findRandomXAddon(), key: Array.from(v.key), input: Array.from(v.input) },
    });
    const got = await new Promise<string>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    assert.equal(got, v.epic);
  });

  it('rejects non-Uint8Array arguments with a TypeError', () => {
    assert.throws(() => rx.hash('key' as unknown as Uint8Array, new Uint8Array(1)), TypeError);
    assert.throws(() => rx.hashSync(new Uint8Array(1), [1, 2] as unknown as Uint8Array), TypeError);
  });
});
