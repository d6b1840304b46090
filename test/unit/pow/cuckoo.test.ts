// The Cuckoo family against Epic's own vectors (reference §10.1, §10.2): the siphash variant,
// both key rules, Cuckatoo29/31 and Cuckaroo19 solutions, proof packing and proof hashes, and
// every failure cause — each proof below fails for exactly one reason and is named by it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fromHex, toHex } from '../../../core/bytes.js';
import { CHAIN_PARAMS } from '../../../core/chain_type.js';
import { genesisHeader } from '../../../core/genesis.js';
import {
  difficultyAlgoOfProof,
  isPrimary,
  isSecondary,
  scheduleAlgoOfProof,
  verifierOf,
} from '../../../core/pow/algorithm.js';
import { verifyCuckaroo } from '../../../core/pow/cuckaroo.js';
import { verifyCuckatoo } from '../../../core/pow/cuckatoo.js';
import { PowError } from '../../../core/pow/errors.js';
import {
  setPrePowNonce,
  sipKeysFromHeaderNonce,
  sipKeysFromPrePow,
} from '../../../core/pow/keys.js';
import type { RandomXBackend } from '../../../core/pow/randomx_backend.js';
import {
  type SipKeys,
  siphash24,
  siphashBlock,
  sipKeys,
  sipKeyWords,
} from '../../../core/pow/siphash.js';
import { meetsTarget, powDifficulty, proofHash, targetFor } from '../../../core/pow/target.js';
import { verifyPow } from '../../../core/pow/verify.js';
import { encode } from '../../../core/ser/codec.js';
import { prePow } from '../../../core/ser/header.js';
import { writeProof } from '../../../core/ser/pow.js';
import type { Proof } from '../../../core/types/pow.js';
import { big, C29, C31, failure } from '../../support/pow.js';

// Cuckaroo19 (`core/src/pow/cuckaroo.rs` tests), keys given directly.
const R19_KEYS_1 = [
  0x23796193872092ean,
  0xf1017d8a68c4b745n,
  0xd312bd53d2cd307bn,
  0x840acce5833ddc52n,
];
const R19_1 = big([
  0x45e9, 0x6a59, 0xf1ad, 0x10ef7, 0x129e8, 0x13e58, 0x17936, 0x19f7f, 0x208df, 0x23704, 0x24564,
  0x27e64, 0x2b828, 0x2bb41, 0x2ffc0, 0x304c5, 0x31f2a, 0x347de, 0x39686, 0x3ab6c, 0x429ad, 0x45254,
  0x49200, 0x4f8f8, 0x5697f, 0x57ad1, 0x5dd47, 0x607f8, 0x66199, 0x686c7, 0x6d5f3, 0x6da7a, 0x6dbdf,
  0x6f6bf, 0x6ffbb, 0x7580e, 0x78594, 0x785ac, 0x78b1d, 0x7b80d, 0x7c11c, 0x7da35,
]);
const R19_KEYS_2 = [
  0x6a54f2a35ab7e976n,
  0x68818717ff5cd30en,
  0x09c14260c1bdbaf7n,
  0xea5b4cd5d0de3cf0n,
];
const R19_2 = big([
  0x2b1e, 0x67d3, 0xb041, 0xb289, 0xc6c3, 0xd31e, 0xd75c, 0x111d7, 0x145aa, 0x1712e, 0x1a3af,
  0x1ecc5, 0x206b1, 0x2a55c, 0x2a9cd, 0x2b67e, 0x321d8, 0x35dde, 0x3721e, 0x37ac0, 0x39edb, 0x3b80b,
  0x3fc79, 0x4148b, 0x42a48, 0x44395, 0x4bbc9, 0x4f775, 0x515c5, 0x56f97, 0x5aa10, 0x5bc1b, 0x5c56d,
  0x5d552, 0x60a2e, 0x66646, 0x6c3aa, 0x70709, 0x71d13, 0x762a3, 0x79d88, 0x7e3ae,
]);
// Grin's mainnet genesis proof (the one Epic copied, reference §10.6).
const GRIN_GENESIS = big([
  4391451, 36730677, 38198400, 38797304, 60700446, 72910191, 73050441, 110099816, 140885802,
  145512513, 149311222, 149994636, 157557529, 160778700, 162870981, 179649435, 194194460, 227378628,
  230933064, 252046196, 272053956, 277878683, 288331253, 290266880, 293973036, 305315023, 321927758,
  353841539, 356489212, 373843111, 381697287, 389274717, 403108317, 409994705, 411629694, 431823422,
  441976653, 521469643, 521868369, 523044572, 524964447, 530250249,
]);

const hex64 = (keys: SipKeys): string[] =>
  sipKeyWords(keys).map((k) => k.toString(16).padStart(16, '0'));
const zeroHeader = (n: number): Uint8Array => new Uint8Array(n);
const K29 = sipKeysFromHeaderNonce(zeroHeader(80), 20);
const K31 = sipKeysFromHeaderNonce(zeroHeader(80), 99);

describe("Epic's siphash-2-4 variant (§10.1)", () => {
  it('siphash24', () => {
    assert.equal(siphash24(sipKeys([1n, 2n, 3n, 4n]), 10n), 928382149599306901n);
    assert.equal(siphash24(sipKeys([1n, 2n, 3n, 4n]), 111n), 10524991083049122233n);
    assert.equal(siphash24(sipKeys([9n, 7n, 6n, 7n]), 12n), 1305683875471634734n);
    assert.equal(siphash24(sipKeys([9n, 7n, 6n, 7n]), 10n), 11589833042187638814n);
  });

  it('siphash_block', () => {
    assert.equal(siphashBlock(sipKeys([1n, 2n, 3n, 4n]), 10n), 1182162244994096396n);
    assert.equal(siphashBlock(sipKeys([1n, 2n, 3n, 4n]), 123n), 11303676240481718781n);
    assert.equal(siphashBlock(sipKeys([9n, 7n, 6n, 7n]), 12n), 4886136884237259030n);
  });

  it('keys round-trip through the int32 halves', () => {
    const words = [0n, 0xffff_ffff_ffff_ffffn, 0x8000_0000_0000_0001n, 0x1234_5678_9abc_def0n];
    assert.deepEqual(sipKeyWords(sipKeys(words)), words);
  });
});

describe('siphash keys (§3, §4.2)', () => {
  it('explicit-nonce rule of the unit vectors: 76 zero bytes ‖ LE u32 nonce', () => {
    assert.deepEqual(hex64(K29), [
      '27580576fe290177',
      'f9ea9b2031f4e76e',
      '1663308c8607868f',
      'b88839b0fa180d0e',
    ]);
    assert.deepEqual(hex64(K31), [
      '8785f61f3e087286',
      '91b57e6072a0cdaa',
      '8035f9ee251a77a0',
      '0de03da786148f07',
    ]);
    assert.deepEqual(hex64(sipKeysFromHeaderNonce(zeroHeader(80), 1546569)), [
      '8caefe3dad6bc1f2',
      'b5f021dbfa151bc5',
      '626dd2f4c6f35c1f',
      '19c9434751e9d6e3',
    ]);
  });

  it('consensus rule: blake2b256 of the 282-byte pre-pow with its big-endian nonce', () => {
    const pre = setPrePowNonce(prePow(genesisHeader('usernet'), CHAIN_PARAMS.usernet), 27950n);
    assert.equal(pre.length, 282);
    assert.equal(toHex(pre.subarray(274)), '0000000000006d2e');
    assert.deepEqual(hex64(sipKeysFromPrePow(pre)), [
      '265799fb0082c1fe',
      '58bfabe8666681ae',
      '8eed946e22b3da80',
      '53e05653e28625c9',
    ]);
  });
});

describe('valid cycles (§10.2)', () => {
  it('Cuckatoo29 and Cuckatoo31 solutions verify', () => {
    verifyCuckatoo(K29, 29, C29, 42);
    verifyCuckatoo(K31, 31, C31, 42);
  });

  it('both Cuckaroo19 solutions verify; the all-zero proof does not', () => {
    verifyCuckaroo(sipKeys(R19_KEYS_1), 19, R19_1, 42);
    verifyCuckaroo(sipKeys(R19_KEYS_2), 19, R19_2, 42);
    const zero = new Array<bigint>(42).fill(0n);
    assert.equal(
      failure(() => verifyCuckaroo(sipKeys(R19_KEYS_1), 19, zero, 42)),
      'DuplicateEdge',
    );
  });

  it('the graphs differ: a Cuckatoo solution is no Cuckaroo one and vice versa', () => {
    assert.equal(
      failure(() => verifyCuckaroo(K29, 29, C29, 42)),
      'EndpointsDontMatch',
    );
    assert.equal(
      failure(() => verifyCuckatoo(sipKeys(R19_KEYS_1), 19, R19_1, 42)),
      'EndpointsDontMatch',
    );
  });

  it("Grin's genesis proof is a Cuckaroo29 cycle of Grin's genesis pre-pow", () => {
    // Grin pre-pow: u16 version 1, height 0, 2019-01-15T16:01:26Z, prev_hash 0, its four roots,
    // zero offset, MMR sizes 1/1, total difficulty 2^34 as one u64, scaling 1856, nonce 41.
    const roots = [
      '0000000000000000002a8bc32f43277fe9c063b9c99ea252b483941dcd06e217',
      'fa7566d275006c6c467876758f2bc87e4cebd2020ae9cf9f294c6217828d6872',
      '1b7fff259aee3edfb5867c4775e4e1717826b843cda6685e5140442ece7bfc2e',
      'e8bb096a73cbe6e099968965f5342fc1702ee2802802902286dcf0f279e326bf',
    ];
    const pre = fromHex(
      `0001${'00'.repeat(8)}000000005c3e03d6${'00'.repeat(32)}${roots.join('')}${'00'.repeat(32)}` +
        `${'0000000000000001'.repeat(2)}0000000400000000000007400000000000000029`,
    );
    assert.ok(pre !== null && pre.length === 246);
    verifyCuckaroo(sipKeysFromPrePow(pre), 29, GRIN_GENESIS, 42);
    assert.equal(
      failure(() => verifyCuckatoo(sipKeysFromPrePow(pre), 29, GRIN_GENESIS, 42)),
      'EndpointsDontMatch',
    );
  });
});

// Automated-testing chain (9 edge bits, proof size 4): its genesis pre-pow with the nonces
// below gives graphs where these 4-edge sets pass the xor test and fail only on the walk.
const AUTO_PRE_POW = prePow(genesisHeader('automated'), CHAIN_PARAMS.automated);
function autoKeys(nonce: bigint): SipKeys {
  return sipKeysFromPrePow(setPrePowNonce(AUTO_PRE_POW.slice(), nonce));
}

describe('every failure cause, each with its own code', () => {
  const replace = (xs: readonly bigint[], at: number, x: bigint): bigint[] =>
    xs.map((y, i) => (i === at ? x : y));

  it('TooFewNonces / TooManyNonces: the chain proof size is required', () => {
    assert.equal(
      failure(() => verifyCuckatoo(K29, 29, C29.slice(0, 41), 42)),
      'TooFewNonces',
    );
    assert.equal(
      failure(() => verifyCuckatoo(K29, 29, [...C29, 0x1c0b9cabn], 42)),
      'TooManyNonces',
    );
  });

  it('EdgeTooBig: a nonce above the edge mask', () => {
    assert.equal(
      failure(() => verifyCuckatoo(K29, 29, replace(C29, 41, 1n << 29n), 42)),
      'EdgeTooBig',
    );
    // 2^29 − 1 is in range: that proof fails later, not on the range check.
    assert.notEqual(
      failure(() => verifyCuckatoo(K29, 29, replace(C29, 41, (1n << 29n) - 1n), 42)),
      'EdgeTooBig',
    );
  });

  it('EdgesNotAscending and DuplicateEdge', () => {
    const swapped = replace(replace(C29, 3, C29[4] as bigint), 4, C29[3] as bigint);
    assert.equal(
      failure(() => verifyCuckatoo(K29, 29, swapped, 42)),
      'EdgesNotAscending',
    );
    assert.equal(
      failure(() => verifyCuckatoo(K29, 29, replace(C29, 4, C29[3] as bigint), 42)),
      'DuplicateEdge',
    );
  });

  it("EndpointsDontMatch: Epic's two negative Cuckatoo29 cases", () => {
    const header = zeroHeader(80);
    header[0] = 1;
    assert.equal(
      failure(() => verifyCuckatoo(sipKeysFromHeaderNonce(header, 20), 29, C29, 42)),
      'EndpointsDontMatch',
    );
    assert.equal(
      failure(() => verifyCuckatoo(K29, 29, replace(C29, 0, 0x48a9e1n), 42)),
      'EndpointsDontMatch',
    );
  });

  it('a genuine 4-cycle of the automated chain verifies (control for the cases below)', () => {
    verifyCuckatoo(autoKeys(6n), 9, [58n, 99n, 120n, 160n], 4);
  });

  it('BranchInCycle: four u endpoints in one node pair', () => {
    assert.equal(
      failure(() => verifyCuckatoo(autoKeys(7n), 9, [397n, 451n, 471n, 505n], 4)),
      'BranchInCycle',
    );
  });

  it('CycleDeadEnds: an endpoint whose only link is its own value', () => {
    assert.equal(
      failure(() => verifyCuckatoo(autoKeys(0n), 9, [0n, 1n, 35n, 62n], 4)),
      'CycleDeadEnds',
    );
  });

  it('CycleTooShort: two 2-cycles instead of one 4-cycle', () => {
    assert.equal(
      failure(() => verifyCuckatoo(autoKeys(3n), 9, [138n, 237n, 454n, 457n], 4)),
      'CycleTooShort',
    );
  });

  it('CycleTooShort at 42: two disjoint usernet cycles given as one 84-edge proof', () => {
    const keys = sipKeysFromPrePow(
      setPrePowNonce(prePow(genesisHeader('usernet'), CHAIN_PARAMS.usernet), 27950n),
    );
    const a = big([
      100, 822, 1011, 2744, 3025, 3307, 3483, 4345, 5486, 6712, 6796, 7045, 10165, 11353, 13561,
      13889, 14460, 14797, 15831, 16506, 18806, 19029, 20813, 22118, 22759, 22778, 24079, 24741,
      25703, 25866, 26191, 26552, 28105, 28291, 28425, 28427, 30524, 30634, 31718, 32005, 32409,
      32639,
    ]);
    const b = big([
      1279, 1564, 2878, 3002, 3855, 6051, 6869, 10206, 11637, 12026, 12974, 13052, 13283, 13609,
      13797, 14109, 15151, 15472, 16615, 17187, 17194, 19527, 19870, 20194, 20396, 21737, 22741,
      23640, 24329, 24657, 24682, 26162, 27441, 28042, 28115, 28158, 28563, 29663, 30185, 30381,
      32162, 32198,
    ]);
    verifyCuckatoo(keys, 15, a, 42);
    verifyCuckatoo(keys, 15, b, 42);
    const both = [...a, ...b].sort((x, y) => (x < y ? -1 : 1));
    assert.equal(new Set(both).size, 84);
    assert.equal(
      failure(() => verifyCuckatoo(keys, 15, both, 84)),
      'CycleTooShort',
    );
  });

  it('errors carry Epic messages', () => {
    assert.throws(
      () => verifyCuckatoo(K29, 29, replace(C29, 4, C29[3] as bigint), 42),
      (e: unknown) => e instanceof PowError && e.epicMessage === 'edges not ascending',
    );
  });
});

describe('proof packing, proof hash and difficulty (§2.3, §2.5, §4.4)', () => {
  const p29: Proof = { kind: 'Cuckoo', edgeBits: 29, nonces: C29 };
  const p31: Proof = { kind: 'Cuckoo', edgeBits: 31, nonces: C31 };
  const wire = CHAIN_PARAMS.mainnet;

  it('packed nonces, LSB first', () => {
    assert.equal(
      toHex(encode(writeProof, p29, 1, wire)),
      '001de2a94860089e13c0285785c1a3c7c0868f24c834c584d4b56e49ab713960b73de966a72fc1598127adae18151a57a38cb69194ade59d8ab021562f9164cbe3d876852f322f1d521c96a9fad4cc14031c27f98dd3af4b7d35607851c1764882b624ca29aa0d0a3a3c48bda40a2a4bcd811dffc0b0daa1e3d7a36c01e35967e25dd8988c440696ab2c08762b08cbe641bddeb0d5055c95738103',
    );
    assert.equal(
      toHex(encode(writeProof, p31, 1, wire)),
      '001f078e128198080c864deb43c4bdbb26327d9c6651378fc9cc17007094d9ad3b7ece291e7e9b4b90c6afa429550bf73469b79b3a02156e2994a1b82a23705ef9b30e35946bf71d2f87a12f989128d8f6081f5424de17c6ac0e0e3f8c1387cea540c502bad0647bcb0d14b6e1258a28b6883552b5d1fa87a7702d5631c2b5054763c8e819f30bdea039dc16e55cb4df7a3618714587d783b59f785ef1ab51defd9076d63f',
    );
    const tiny: Proof = { kind: 'Cuckoo', edgeBits: 9, nonces: [1n, 2n, 3n, 511n] };
    assert.equal(toHex(encode(writeProof, tiny, 1, CHAIN_PARAMS.automated)), '000901040cf80f');
  });

  it('proof hash = blake2b256(0x00 ‖ packed nonces)', () => {
    assert.equal(
      toHex(proofHash(p29, wire)),
      'ba3a9851bb8e30b78e91458886a8e6660c58013fbb4c9982bda744d0b72aaec9',
    );
    assert.equal(
      toHex(proofHash(p31, wire)),
      '1a3afc6589b8233282ef0d135c9d523f7383b15f611a390b0ca340be4f91629e',
    );
  });

  it('scaled difficulty: graph weight below 31 edge bits, secondary scaling at 31', () => {
    const h29 = BigInt(`0x${toHex(proofHash(p29, wire).subarray(0, 8))}`);
    assert.equal(h29, 13419205516510245047n);
    assert.equal((13n << 64n) / h29, 17n);
    // Mainnet graph weight of 29 edge bits at height 0: (2 << 5) · 29 = 1856.
    assert.equal(powDifficulty(wire, 0n, { proof: p29, secondaryScaling: 0 }), 2551n);
    assert.equal(powDifficulty(wire, 0n, { proof: p31, secondaryScaling: 13 }), 126n);
    assert.equal(powDifficulty(wire, 0n, { proof: p31, secondaryScaling: 1856 }), 18113n);
  });
});

describe('verifyPow and the algorithm rules (§2.1, §4.1, §8.3)', () => {
  const opts = { proofSize: 42 };
  // The unit vectors' keys are blake2b256 of 80 bytes, so those 80 bytes act as a pre-pow.
  const pre29 = zeroHeader(80);
  pre29[76] = 20;
  const cuckoo29: Proof = { kind: 'Cuckoo', edgeBits: 29, nonces: C29 };
  const seed = new Uint8Array(32);

  it('Cuckoo proofs: Cuckatoo by default, Cuckaroo when asked', () => {
    assert.equal(verifierOf(cuckoo29), 'cuckatoo');
    assert.deepEqual(verifyPow(pre29, { proof: cuckoo29, seed }, 'cuckatoo', opts), {
      algorithm: 'cuckatoo',
    });
    assert.throws(
      () => verifyPow(pre29, { proof: cuckoo29, seed }, 'cuckaroo', opts),
      (e: unknown) => e instanceof PowError && e.code === 'EndpointsDontMatch',
    );
  });

  it('a proof handed to another verifier is WrongAlgorithm', () => {
    const rx: Proof = { kind: 'RandomX', hash: new Uint8Array(32) };
    for (const algo of ['cuckatoo', 'cuckaroo', 'progpow', 'md5'] as const)
      assert.equal(
        failure(() => verifyPow(pre29, { proof: rx, seed }, algo, opts)),
        'WrongAlgorithm',
      );
    assert.equal(
      failure(() => verifyPow(pre29, { proof: cuckoo29, seed }, 'randomx', opts)),
      'WrongAlgorithm',
    );
  });

  it('RandomX without a backend is RandomXUnavailable, never success', () => {
    const rx: Proof = { kind: 'RandomX', hash: new Uint8Array(32).fill(7) };
    assert.equal(
      failure(() => verifyPow(pre29, { proof: rx, seed }, 'randomx', opts)),
      'RandomXUnavailable',
    );
    const fake: RandomXBackend = { available: true, hash: () => new Uint8Array(32).fill(7) };
    verifyPow(pre29, { proof: rx, seed }, 'randomx', { ...opts, randomx: fake });
    const other: RandomXBackend = { available: true, hash: () => new Uint8Array(32).fill(8) };
    assert.equal(
      failure(() => verifyPow(pre29, { proof: rx, seed }, 'randomx', { ...opts, randomx: other })),
      'InvalidRandomX',
    );
  });

  it('RandomX difficulty: (2^256 − 1) / hash (§10.3 first row: 4)', () => {
    const hash = fromHex('3adb57cd3a05db9dd2139472dbbf647a3133e04353b8324969ff3ae62314e8f4');
    assert.ok(hash !== null);
    assert.equal(
      powDifficulty(CHAIN_PARAMS.mainnet, 0n, {
        proof: { kind: 'RandomX', hash },
        secondaryScaling: 0,
      }),
      4n,
    );
  });

  it('three edge-bits rules: bookkeeping key, schedule, primary/secondary', () => {
    const cuckoo = (edgeBits: number): Proof => ({ kind: 'Cuckoo', edgeBits, nonces: [] });
    const md5: Proof = { kind: 'MD5', edgeBits: 31, proof: '' };
    assert.deepEqual(
      [19, 29, 31, 24, 15].map((b) => difficultyAlgoOfProof(cuckoo(b))),
      ['cuckatoo', 'cuckaroo', 'cuckatoo', 'cuckaroo', 'cuckaroo'],
    );
    assert.deepEqual(
      [19, 29, 31, 24, 15].map((b) => scheduleAlgoOfProof(cuckoo(b))),
      ['cuckatoo', 'cuckaroo', 'cuckatoo', 'cuckatoo', 'cuckatoo'],
    );
    assert.equal(difficultyAlgoOfProof(md5), 'randomx');
    assert.equal(scheduleAlgoOfProof(md5), undefined);
    assert.equal(isSecondary(cuckoo(31)), true);
    assert.equal(isSecondary(md5), true);
    assert.equal(isPrimary(cuckoo(31), CHAIN_PARAMS.mainnet), false);
    assert.equal(isPrimary(cuckoo(18), CHAIN_PARAMS.mainnet), false);
    assert.equal(isPrimary(cuckoo(19), CHAIN_PARAMS.mainnet), true);
    assert.equal(isPrimary(cuckoo(15), CHAIN_PARAMS.usernet), true);
    assert.equal(isPrimary({ kind: 'ProgPow', mix: seed }, CHAIN_PARAMS.mainnet), true);
  });

  it("achieved ≥ the target entry of the proof's bookkeeping algorithm", () => {
    const target = { cuckaroo: 2552n, cuckatoo: 2551n, randomx: 1n, progpow: 1n };
    const p31: Proof = { kind: 'Cuckoo', edgeBits: 31, nonces: C31 };
    assert.equal(targetFor(cuckoo29, target), 2552n);
    assert.equal(meetsTarget(cuckoo29, 2551n, target), false);
    assert.equal(meetsTarget(p31, 2551n, target), true);
  });
});
