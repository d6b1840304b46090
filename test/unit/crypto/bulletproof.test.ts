// Bulletproofs: generator derivation (SW map, generator_generate, the G_i/H_i set), scalar
// derivation, transcript, layout sizes, prove → verify → rewind round trips, single and batch
// rejection of tampered proofs, bisection, and the proof builders' nonces and messages.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes, toHex } from '../../../core/bytes.js';
import {
  findInvalidRangeProofs,
  verifyRange,
  verifyRangeBatch,
} from '../../../core/crypto/bulletproof/batch.js';
import {
  LegacyProofBuilder,
  ProofBuilder,
  ViewKeyBuilder,
} from '../../../core/crypto/bulletproof/builders.js';
import { scalarChacha20 } from '../../../core/crypto/bulletproof/chacha.js';
import { bulletproofGenerators, generatorXY } from '../../../core/crypto/bulletproof/generators.js';
import {
  innerProductProofLength,
  PROOF_SIZE,
  rangeProofLength,
} from '../../../core/crypto/bulletproof/layout.js';
import { proveRange } from '../../../core/crypto/bulletproof/prover.js';
import { rewindRange } from '../../../core/crypto/bulletproof/rewind.js';
import { Rfc6979Stream } from '../../../core/crypto/bulletproof/rfc6979.js';
import { generatorGenerate, shallueVanDeWoestijne } from '../../../core/crypto/bulletproof/sw.js';
import { Transcript } from '../../../core/crypto/bulletproof/transcript.js';
import { commit } from '../../../core/crypto/commit.js';
import { bigIntTo32, CURVE_N, FIELD_P } from '../../../core/crypto/curve.js';
import { hex } from '../../support/crypto.js';

function xyHex(p: { toAffine(): { x: bigint; y: bigint } }): [string, string] {
  const a = p.toAffine();
  return [toHex(bigIntTo32(a.x)), toHex(bigIntTo32(a.y))];
}

/** Deterministic 32-byte test secrets (valid keys: high byte well below n's). */
function secret(tag: number): Uint8Array {
  return sha256(Uint8Array.of(0x42, tag));
}

/** SW(t) for t = 1..16 (secp256k1-zkp `test_shallue_van_de_woestijne`, reference §8.1). */
const SW_VECTORS: readonly [string, string][] = [
  [
    'edd1fd3e327ce90cc7a3542614289aee9682003e9cf7dcc9cf2ca9743be5aa0c',
    '0225f529ee75acafccfc456026c5e46bf80237a33924655a16f90e88085ed52a',
  ],
  [
    '2c5cdc9c338152fa85de92cb1bee9907765a922e4f037cce14ecdbf22f78fe15',
    '567160696818286b72f01a3e5e8caca736249160c7ded69dd51913c303a2fa97',
  ],
  [
    '531f7239aebc780e179fbf8d412a1b01511f0abce0c461518b38db84cc2467f3',
    '82387d45ec7bd5cc61fcb9df41cddd7b217d81143577dc8f23de356a7e97704e',
  ],
  [
    '2c5cdc9c338152fa85de92cb1bee9907765a922e4f037cce14ecdbf22f78fe15',
    '567160696818286b72f01a3e5e8caca736249160c7ded69dd51913c303a2fa97',
  ],
  [
    '5e5936b181db0b658e33a8c61aa687dd31d11e1585e356646b4c2071cde7e942',
    '88bb5332a8e0565478d4f60c0cd979ec938558f2cac112167c387a56e3a6d5f3',
  ],
  [
    '657d438ffac34a50463fd07c3f09f3204c98e8ed6927e330c0c7735f76d32f6d',
    '577c2b11caca2f6fd60bcaf03e7cebe95da6e1f4bb557f122a39733181df897f',
  ],
  [
    'be0bc11b2bc639cbc28f72a8d07c21ccbc06cfa74c2ff25e630c974023128eab',
    '6f062fc875148197d10375c3cc3fadb620277e9c00579c55eddd7f95e95604db',
  ],
  [
    'edd1fd3e327ce90cc7a3542614289aee9682003e9cf7dcc9cf2ca9743be5aa0c',
    'fdda0ad6118a53503303ba9fd93a1b9407fdc85cc6db9aa5e906f176f7a12705',
  ],
  [
    'aee172d4ce7c5010db20a88f469598c1d7f7926fabb85cb5339f140387e6b494',
    '380659804de81b35098c7190e3380f9d95b2ed6c6c869e85c772bc5a7bc3d9d5',
  ],
  [
    'c28f5c28f5c28f5c28f5c28f5c28f5c28f5c28f5c28f5c28f5c28f5b6666635a',
    '0c4da8401b2cf5be4604e6ecf92b2780063a5351e294bf65bb2f8b6100902db7',
  ],
  [
    'ecf56be69c8fde26152832c6e043b3d5af9a723f789854a0cb1b810de2614ece',
    '66127ae4e4c17a7560a727e6ffd2ea7faed99088bec465c6bde5679137ed5572',
  ],
  [
    'ba72860f10fcd14223f71e3c228deb9ac46c5ff590b884e5cc60d51e0629d16e',
    '67999f315a74ada3526832cf76b9fec3a348cc9733c3aa6702bd25167814f635',
  ],
  [
    '92ef5657dba51cc7f3e1b442a6a0916b8ce030792ef5657dba51cc7eab2beb65',
    '782c65d23f1e0eb29179a994e5e8ff805a0d50d9deeaed90cec96ca5973e2ad3',
  ],
  [
    '9468ad22f921fc788de3f1b0586c58eb5e6f0270e950b6027ada90d9d71ae323',
    '922a0c6a9ccc31d9c3bf87fd8838173935fe393fa64dfdec29f2846d12918d86',
  ],
  [
    '76ddc7f5e029e59e22b0e54fa811db945a209c4f5e912ca28b4da6a74c1e00a2',
    '1e8f516c91c2043750f6e24e8c2cf202acf68291bf8b66ebf7335b62ec2c88fe',
  ],
  [
    'f75763bc2907e79b125e33c39a027f480f8c64092153432f967bc2b11d1f5cf0',
    'b4a8edc636391b399bc219c03d033128dbcd463ed2506394061b87a59e510235',
  ],
];

/** generator_generate(31 zero bytes ‖ i), i = 1..32 (`test_generator_generate`). */
const GENERATE_VECTORS: readonly [string, string][] = [
  [
    '806cd8edd6c153e34aa9b9a08755c4be4718b1efb26cb93ffdd99e1b21f2af8e',
    'c7062208cc649a031bdc1a339d01f1154bcd0dcafe0b875d62f35f7328673006',
  ],
  [
    'd91b15ec47a811f4aa189561d13f5c4d4e81f10dc7dc551f4fea9b84610314c4',
    '9b0ada1eb38efd678bff0b6c7d7315f7b49b8cc5a679fad4c94f9dc69da66382',
  ],
  [
    '11c00de6f885035e76051430a3c38b2a5f86ab8cf66dae5804ea7307348b19bf',
    'e0858ae761dcb1baff247e37d38fcd88f3bd7911aa4ed6e028d792dd3ee1ac09',
  ],
  [
    '986b99eb3130e7f0e779f674b85cb51446a676bfb1dfb6034c4bb6397c406210',
    'df9006098b3ef1e030e32fb0d97a4329ff98aed0cd278c3fe6078467fbd12f35',
  ],
  [
    'ae52814603fdf91ec592977e12461dc7b9e038f8048dcb62ea264756d459ae42',
    '80ef658d92becb84dba8e4f9560d7a72baf4c393fbcf600711039f1c224faaad',
  ],
  [
    '00df3d9135975eee91fab903e3128e4aca071dde270814e5cbda69eccad58f46',
    '11b590aa92d899692dbd932f08013b8b45afabc643677db2143e0c0f5865fb03',
  ],
  [
    '1168155b987e9bc884c5f3f492ebf784cc8c673539d8e5e8a967115a2949da9b',
    '0858a470f403ca97b1827f6f544c2c6708f6cb83c510c31796c981edb9f61780',
  ],
  [
    'e8d7c0cf2bb4194c97bf2a36bd115ba081a9afe87663fa3c9c3cd25379fe2571',
    '2028ad04efa001195a25d59867e7950249de7c614751cd9d4fb317f6f76f1110',
  ],
  [
    '9532c491a64851ddcd0d3e5a93e17267a10aca95a23781aa5087f340c45fecc3',
    'b691ddc23143a7b609969302258affb85bbf8666e1192319eb174d88308bd57a',
  ],
  [
    '6b20b6e21ba6cc443f2c3a0c5283ba44bee43a0a2799a6cfbecc0f8af8c583ac',
    'f7021e76d51291a6f9396215686f25aabec362825e11eeea6e51a6e6d7d7c006',
  ],
  [
    'de27e6ff219b3ab12b0a9e4e51fc609296e55af6c6f717d612cd6cce65d6c8f2',
    '481668844dc13fd2ed7a7d8166a0839a8a960863fe0001c135d206fd63b87c09',
  ],
  [
    '79a96fb8d88a08d3055d38d13346b0d447d838cafcc8fa406d3a7157ef84e7e3',
    '6bab9c452871b51db0df2369e7860e012e37ffea6689fd1a9c6fe9cfb940acea',
  ],
  [
    '06c4d4cbd32c0ddb67e988c62bdbe6ada39b80cc61afb347234abe27a689618c',
    '5b355949f904fe08569b2313e8f19f8dc5b79e2770da08325fb7a229238ca6b6',
  ],
  [
    '7027e5663e727c2842aa14e552c2d2ec1d8beaa98a22ceab15ccafc3b4f06249',
    '9b3dffbcdbd5e0456931fd038b1c6a9b4c168c6da6553897fe11ce49ac728139',
  ],
  [
    'ee3520c39f2b954df8e15547daeb6cc804c8f3b09301f53ee0c11ea1eace539d',
    '244ff8737e060c98e843c353cd35d2e43cd8b082cffbc9ae81eafa70332f9748',
  ],
  [
    'daecd756f5b706a4c14e10953e2f70dfa81276e771806b894d8a5502a0ef4998',
    'bac906c0948b1d48e023f439fd3770b8837f60cc40552a51433d0b796610da27',
  ],
  [
    '55e1ca28750fe2d057f7449b3f49d9993b9616dd5387bc2e6e6698f8c4ea49f4',
    'e339e0e9a4c7fa99d063e0626582bce233c6b1ee17a5b47f6d43ecf898b40120',
  ],
  [
    'dd82cac29e0e01354964d3bc27469233f13bbd5ed7aff24b4902fca817294b12',
    '561ab1d6cd9bcb6e805585cf3df8714c1bfa63045efbf1221a3d8fd93827764a',
  ],
  [
    'da5cbfb73522e9c7cb594436836770380eaa64a92eca38880fe4c9d6deb22dbf',
    '4f46de680447c780c54a314b5389a926bba8910b869fc6cd42ee82e85895e42a',
  ],
  [
    '4e09830ec8894c584e6278de167a96b020d60463ee48f7884974d66e871e35e9',
    '21259c4d332ca9322e187df9e7afbc239d171ebc7d9e2560503f50b19fe45834',
  ],
  [
    'abfff6ca41dcfd1703cae6299d127971f19ee0002db332e65cc209a3c21b8f54',
    '65991d60ee54f5ccddf7a732a76b0303b9f519a622ea03908af23ffa35ae6632',
  ],
  [
    'c6c9b92c91e045a5a191327744d6fce211b12c7c9b3112d6c61e14a6d6b1ae12',
    '04ab0396ebdc4c6ac213cc3e077a2e80b4ba7b2b33907d562c98ccf7b82a2e9f',
  ],
  [
    '66f6e6d9c4bb9a5f9908578183cb93622ea437d8ccd31969ffadca3aff1d3935',
    '50a5b06e39e039d71dfb272318db74e55af64da1dfc345866aac3bd05792a890',
  ],
  [
    '58ded03c98e1a89063fc7793e3ecd896235e75c982e7008fddbf3ca85b7e9ecb',
    '3459477658ab6821af43a453a946fda913d24999ccf22df8d291ef59b08975c0',
  ],
  [
    '745578644f2b0486d5beea7c2d258ccb78a870e1848982d8ed3f91a49db83a36',
    'd84e940e1d33c28a62398ec8c493aee77c2ba72242dee7ae3c35c256ad00cf42',
  ],
  [
    '7fc7963a16abc8fb5d61eb610fc50a68754470d2f43df3be52228f66522fe61b',
    '499f9e7f462c654529687af49f7c732d48801ce521acd546c6fb903c7c265032',
  ],
  [
    'b2f6257cc58df82fb9ba4f367ededf03f8ea10f3104d7ae6233b7ac4725e11de',
    '9c7a32df4842f33daad84f0b62e88b4046ddcbdebbeec6f893bfde270561dc73',
  ],
  [
    'e2cdfd278a8e22beabf08b791bc6ae3841d22a9a9472e2661a7c6e83a2f74725',
    '0e26c103e0dd93b23724f3b78bb7366e2c245768d64f3283d8316e8a1383b977',
  ],
  [
    '757c13e7e866017ee6af61d7161d208ac438f712242fcd2363a10e59d67e41fb',
    'b550c6a94ddb15f3feea4bfed2faa19f2aa2fbd30c6ae785e357f365b30d12e0',
  ],
  [
    '528d525eac30095b5e5f83ca4d3dea63eb608f2d18dd25a72529c8e51ae5f9f1',
    'fde2860b492a41069f356c053ebc045e4ad08b793e264935f25785a98690b5ee',
  ],
  [
    '150df5935b6956a00cfed843b9d6ffce4f790022ea18730fc495111d91568e55',
    '6700a2ca9ff4ed32c16973124eb51ce35656344b65a1e3d5d6c1f7ce29233f82',
  ],
  [
    '38e02eaf2c8774fd58b8b373732457f116dbe53bea5683d9ada20dd714ce20a6',
    '6ac5362ebb4254168250f43fa4ee2b630406324f1c876d60ebe5be2c6eb1515b',
  ],
];

describe('bulletproof generators', () => {
  it('SW map: t = 1..16 and −t (same x, negated y)', () => {
    SW_VECTORS.forEach(([x, y], k) => {
      const t = BigInt(k + 1);
      assert.deepEqual(xyHex(shallueVanDeWoestijne(t)), [x, y], `t = ${t}`);
      const neg = shallueVanDeWoestijne(FIELD_P - t).toAffine();
      assert.equal(toHex(bigIntTo32(neg.x)), x);
      assert.equal(neg.y, FIELD_P - BigInt(`0x${y}`));
    });
  });

  it('generator_generate(31 zero bytes ‖ i), i = 1..32', () => {
    GENERATE_VECTORS.forEach(([x, y], k) => {
      const key = new Uint8Array(32);
      key[31] = k + 1;
      assert.deepEqual(xyHex(generatorGenerate(key)), [x, y], `i = ${k + 1}`);
    });
  });

  it('the G_i / H_i set: G_0, G_1 and H_0 = gens[128]', () => {
    const { g, h } = bulletproofGenerators();
    assert.equal(g.length, 64);
    assert.equal(h.length, 64);
    const g0 = generatorXY(g[0] as never);
    assert.equal(toHex(g0.x), 'b34d5fa6b8f3d13849ce5191b7f67618fe5bd12a88b20eac338945667fb33056');
    assert.equal(toHex(g0.y), '45764c5127badee8be74c88f9b55fcdd466947217f9985a89e33d492d331026e');
    assert.deepEqual(xyHex(g[1] as never), [
      '628615169242109e9e64d4cb2881609c24b989512ad901aeff75649c375dbd79',
      'a2a4ab84fc9fc5172a9d8bd68d1f01304d0193bfc1f4f101f650dcc67460e610',
    ]);
    assert.deepEqual(xyHex(h[0] as never), [
      '2224027aaeed035cdcd5deb0b905e2168147133a291d59ea43e83f01b86de45a',
      '2a091f5c8baabfe5e7a358b1424d8e5f3e6530a2890a012649cd24d593aa1ab3',
    ]);
  });

  it('the RFC6979 stream is deterministic and reseeds between outputs', () => {
    const a = new Rfc6979Stream(Uint8Array.of(1, 2, 3));
    const b = new Rfc6979Stream(Uint8Array.of(1, 2, 3));
    const a1 = a.next32();
    const a2 = a.next32();
    assert.deepEqual(b.next32(), a1);
    assert.deepEqual(b.next32(), a2);
    assert.notDeepEqual(a1, a2);
    assert.notDeepEqual(new Rfc6979Stream(Uint8Array.of(1, 2, 4)).next32(), a1);
  });
});

describe('bulletproof scalars and transcript', () => {
  it('scalar_chacha20 on the foundation line-0 nonce (§8.6)', () => {
    const nonce = hex('1073c17a3f59d3afb9108f05ad53fd4c0c77109ded176ba0c37a77c831115730');
    const [alpha, rho] = scalarChacha20(nonce, 0);
    const [tau1, tau2] = scalarChacha20(nonce, 1);
    assert.equal(alpha, 0x6917065926c5abd04cc4e1acaac3fa1d621e5c22b5b350c4cb9af02c6c4631d1n);
    assert.equal(rho, 0xc406b7b91a3801cc85721b7fc970cfc562af784e4e81c0dec96b974bd811728cn);
    assert.equal(tau1, 0x67bbd63ea244ed93c45b227f7a9864fb0a6b8132e52f078ed815540bc12b531an);
    assert.equal(tau2, 0x789980fcc376a041367346ac1301e76bb2fbf1c630cb034858f75b85db0ce7cbn);
  });

  it('transcript: SHA256(c ‖ flags ‖ x1 ‖ x2), first point on bit 1', () => {
    const x1 = secret(1);
    const x2 = secret(2);
    const t = new Transcript();
    t.absorbPair(x1, true, x2, false);
    const c1 = sha256(concatBytes(new Uint8Array(32), Uint8Array.of(2), x1, x2));
    assert.deepEqual(t.state(), c1);
    t.absorbPacked(1, x2, x1);
    const c2 = sha256(concatBytes(c1, Uint8Array.of(1), x2, x1));
    assert.deepEqual(t.state(), c2);
    t.absorb(x1);
    const c3 = sha256(concatBytes(c2, x1));
    assert.deepEqual(t.state(), c3);
    assert.equal(t.challenge(), BigInt(`0x${toHex(c3)}`));
  });

  it('proof sizes (§8.3)', () => {
    assert.deepEqual([0, 1, 2, 4, 8].map(innerProductProofLength), [32, 96, 160, 225, 289]);
    assert.deepEqual(
      [1, 2, 16, 32, 64].map((b) => rangeProofLength(b)),
      [289, 353, 546, 610, 675],
    );
    assert.deepEqual(
      [rangeProofLength(1, 64), rangeProofLength(2, 8), rangeProofLength(4, 8)],
      [675, 546, 610],
    );
    assert.equal(PROOF_SIZE, 675);
  });
});

interface Made {
  value: bigint;
  blind: Uint8Array;
  commit: Uint8Array;
  proof: Uint8Array;
  nonce: Uint8Array;
  message: Uint8Array;
}

const VALUES = [0n, 1n, 710_400_000n, (1n << 64n) - 1n];
const made: Made[] = VALUES.map((value, i) => {
  const blind = secret(10 + i);
  const nonce = secret(20 + i);
  const message = sha256(Uint8Array.of(30 + i)).subarray(0, 20);
  // Same nonce for both roles (as the legacy builder) so rewinding also recovers the blind.
  const proof = proveRange({ value, blind, rewindNonce: nonce, privateNonce: nonce, message });
  return { value, blind, commit: commit(value, blind), proof, nonce, message };
});

function flipped(b: Uint8Array, at: number, mask = 1): Uint8Array {
  const c = b.slice();
  c[at] = (c[at] as number) ^ mask;
  return c;
}

describe('bulletproof prove / verify / rewind', () => {
  it('round trips for 0, 1, 710 400 000 and 2^64 − 1', () => {
    for (const m of made) {
      assert.equal(m.proof.length, 675);
      assert.equal(verifyRange(m.commit, m.proof), true, `value ${m.value}`);
      const r = rewindRange(m.commit, m.proof, m.nonce);
      assert.ok(r !== null);
      assert.equal(r.value, m.value);
      assert.deepEqual(r.message, m.message);
      assert.deepEqual(r.blind, m.blind);
    }
    assert.equal(verifyRangeBatch(made), true);
  });

  it('rewinding with another nonce or commitment finds nothing', () => {
    const m = made[2] as Made;
    assert.equal(rewindRange(m.commit, m.proof, secret(99)), null);
    assert.equal(rewindRange((made[1] as Made).commit, m.proof, m.nonce), null);
  });

  it('distinct private and rewind nonces: value and message still rewind, the blind does not', () => {
    const blind = secret(40);
    const rewindNonce = secret(41);
    const message = new Uint8Array(20).fill(7);
    const proof = proveRange({ value: 5n, blind, rewindNonce, privateNonce: secret(42), message });
    const c = commit(5n, blind);
    assert.equal(verifyRange(c, proof), true);
    const r = rewindRange(c, proof, rewindNonce);
    assert.equal(r?.value, 5n);
    assert.deepEqual(r?.message, message);
    assert.notDeepEqual(r?.blind, blind);
  });

  it('rejects values outside u64 and invalid blinds', () => {
    const nonce = secret(1);
    const base = { blind: secret(2), rewindNonce: nonce, privateNonce: nonce };
    assert.throws(() => proveRange({ ...base, value: 1n << 64n }), RangeError);
    assert.throws(() => proveRange({ ...base, value: 1n, blind: new Uint8Array(32) }));
    assert.throws(() => proveRange({ ...base, value: 1n, blind: bigIntTo32(CURVE_N) }));
  });

  it('a flipped byte or bit anywhere fails single and batch verification', () => {
    const m = made[2] as Made;
    const others = made.filter((x) => x !== m);
    const at = [0, 31, 32, 64, 65, 100, 129, 161, 193, 225, 257, 289, 321, 353, 354, 355, 500, 674];
    for (const i of at) {
      const bad = flipped(m.proof, i);
      assert.equal(verifyRange(m.commit, bad), false, `proof byte ${i}`);
      assert.equal(verifyRangeBatch([...others, { commit: m.commit, proof: bad }]), false);
    }
    for (const [i, mask] of [
      [0, 1],
      [1, 0x80],
      [32, 1],
    ] as const) {
      const bad = flipped(m.commit, i, mask);
      assert.equal(verifyRange(bad, m.proof), false, `commit byte ${i}`);
      assert.equal(verifyRangeBatch([...others, { commit: bad, proof: m.proof }]), false);
    }
    assert.equal(verifyRange(m.commit, m.proof.subarray(0, 674)), false);
    assert.equal(verifyRange((made[1] as Made).commit, m.proof), false);
  });

  it('bisection names exactly the bad proofs', () => {
    const items = Array.from({ length: 12 }, (_, k) => {
      const m = made[k % made.length] as Made;
      return { commit: m.commit, proof: m.proof };
    });
    assert.deepEqual(findInvalidRangeProofs(items), []);
    const bad = [1, 6, 7, 11];
    for (const k of bad) {
      const it = items[k] as { commit: Uint8Array; proof: Uint8Array };
      items[k] =
        k === 6
          ? { ...it, commit: (made[0] as Made).commit }
          : { ...it, proof: flipped(it.proof, 300 + k) };
    }
    items[7] = { ...(items[7] as Made), proof: (items[7] as Made).proof.subarray(0, 10) };
    assert.equal(verifyRangeBatch(items), false);
    assert.deepEqual(findInvalidRangeProofs(items), bad);
    assert.deepEqual(findInvalidRangeProofs([]), []);
  });
});

const MASTER = hex('f5811136992e0ceb0335950aea26f4b9419588973fb0bd39f5af0ab43069339c');
const LINE1_COMMIT = hex('099961d32a7377e4c644a838019528c282a0779947f08f79ce9137293a21ecc1c2');
const LINE0_COMMIT = hex('08a3e70f9d8d54d1195ec606ee850b57b540a07da261df47716272f3c97f6bf9c6');

describe('proof builders (§4.9, §8.6)', () => {
  it('ProofBuilder: hashes, nonces and message of foundation test line 1', () => {
    const b = ProofBuilder.fromMasterSecret(MASTER);
    assert.equal(
      toHex(b.rewindHash),
      'f5e5cdee1a7a1d430030296f44634728a79bc6a8cee5d9b028b3eaa73e6385c0',
    );
    assert.equal(
      toHex(b.privateHash),
      '153ba92df702d079401b09a2a8da28203bede0d7e94601c99c53e0146a7a90be',
    );
    assert.equal(
      toHex(b.rewindNonce(LINE1_COMMIT)),
      'a67efd064d7a09eff5a1baeb87e983e16dfd2de06d39462152bf40346736fdd5',
    );
    assert.equal(
      toHex(b.privateNonce(LINE1_COMMIT)),
      '9511aec7c0ee206ff60beda98379e040591841b7ddb1127270f8adde297208df',
    );
    const id = hex('010000000a000000000000000000000000');
    const msg = b.proofMessage(id, 1);
    assert.equal(toHex(msg), '000001010000000a000000000000000000000000');
    assert.deepEqual(b.parseMessage(msg), { keyId: id, switchType: 1 });
  });

  it('ProofBuilder message rules: depth capped at 4, switch 0/1, two zero bytes', () => {
    const b = new ProofBuilder(new Uint8Array(32), new Uint8Array(32));
    const msg = hex('0000000900000001000000020000000300000004');
    assert.equal(
      toHex(b.parseMessage(msg)?.keyId ?? new Uint8Array()),
      '0400000001000000020000000300000004',
    );
    assert.equal(b.parseMessage(flipped(msg, 2, 2)), null);
    assert.equal(b.parseMessage(flipped(msg, 0)), null);
    assert.equal(b.parseMessage(flipped(msg, 1)), null);
    assert.equal(b.parseMessage(msg.subarray(0, 19)), null);
  });

  it('LegacyProofBuilder: root hash, shared nonce and path-only message of line 0', () => {
    const b = LegacyProofBuilder.fromMasterSecret(MASTER);
    assert.equal(
      toHex(b.rootHash),
      '988f3947068856ae0e6450ef52117efe08bc7ec1cb383a9bbc0cf873284a992c',
    );
    const nonce = '1073c17a3f59d3afb9108f05ad53fd4c0c77109ded176ba0c37a77c831115730';
    assert.equal(toHex(b.rewindNonce(LINE0_COMMIT)), nonce);
    assert.equal(toHex(b.privateNonce(LINE0_COMMIT)), nonce);
    const msg = b.proofMessage(hex('0100000005000000000000000000000000'), 1);
    assert.equal(toHex(msg), '0000000000000005000000000000000000000000');
    assert.deepEqual(b.parseMessage(msg), {
      keyId: hex('0300000005000000000000000000000000'),
      switchType: 1,
    });
    assert.equal(b.parseMessage(flipped(msg, 3)), null);
  });

  it('ViewKey: rewind nonce as ProofBuilder, path rule, cannot prove', () => {
    const pub = hex('02b860f56795fc03f3c21685383d1b5a2f2954f49b7e398b8d2a0193933621155f');
    const v = new ViewKeyBuilder(pub, 0, 0);
    const p = new ProofBuilder(v.rewindHash, new Uint8Array(32));
    assert.deepEqual(v.rewindNonce(LINE1_COMMIT), p.rewindNonce(LINE1_COMMIT));
    const msg = hex('0000010300000000000000070000000500000000');
    assert.notEqual(v.parseMessage(msg), null);
    assert.notEqual(new ViewKeyBuilder(pub, 2, 7).parseMessage(msg), null);
    assert.equal(new ViewKeyBuilder(pub, 2, 8).parseMessage(msg), null);
    assert.equal(new ViewKeyBuilder(pub, 4, 0).parseMessage(msg), null);
    assert.throws(() => v.privateNonce());
    assert.throws(() => v.proofMessage());
  });
});
