// Merkle proofs: the binary and hex forms (node API reference §7.7, §13 item 4, the doc
// examples of Epic's `api/src/foreign_rpc.rs`), typed decoding errors, and verification checked
// against a literal transcription of Epic's recursive `MerkleProof::verify`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { concatBytes, equalBytes, toHex } from '../../../core/bytes.js';
import { hashWithIndex } from '../../../core/hash/ids.js';
import { MemBackend } from '../../../core/mmr/mem_backend.js';
import {
  EMPTY_MERKLE_PROOF,
  type MerkleProof,
  merkleProofFromHex,
  merkleProofRoot,
  merkleProofToHex,
  readMerkleProof,
  verifyMerkleProof,
  writeMerkleProof,
} from '../../../core/mmr/merkle_proof.js';
import { Mmr } from '../../../core/mmr/mmr.js';
import {
  family,
  familyBranch,
  insertionToPmmrIndex,
  isLeftSibling,
  peaks,
} from '../../../core/mmr/pos.js';
import { SerError, type SerErrorKind } from '../../../core/ser/errors.js';

// get_outputs / get_block doc examples (Grin mainnet data).
const DOC_PROOF_A =
  '00000000003e6f5e000000000000000f60fe09a7601a519d9be71135404580ad9de0964c70a7619b1731dca2cd' +
  '8c1ae1dce9f544df671d63ff0e05b58f070cb48e163ca8f44fb4446c9fe1fc9cfef90e4b81e7119e8cf60acb95' +
  '15363ecaea1ce20d2a8ea2f6f638f79a33a19d0d7b54cfff3daf8d21c243ba4ccd2c0fbda833edfa2506b1b326' +
  '059d124e0c2e27cda90268e66f2dcc7576efac9ebbb831894d7776c191671c3294c2ca0af23201498a7f5ce98d' +
  '5440ca24116b40ac98b1c5e38b28c8b560afc4f4684b81ab34f8cf162201040d4779195ba0e4967d1dd8184b57' +
  '9208e9ebebafa2f5004c51f5902a94bf268fd498f0247e8ba1a46efec8d88fa44d5ecb206fbe728ee56c24af36' +
  '442eba416ea4d06e1ea267309bc2e6f961c57069e2525d17e78748254729d7fdec56720aa85fe6d89b2756a7ee' +
  'ed0a7aa5d13cfb874e3c65576ec8a15d6df17d7d4856653696b10fb9ec205f5e4d1c7a1f3e2dd2994b12eeed93' +
  'e84776d8dcd8a5d78aecd4f96ae95c0b090d104adf2aa84f0a1fbd8d319fea5476d1a306b2800716e60b00115a' +
  '5cca678617361c5a89660b4536c56254bc8dd7035d96f05de62b042d16acaeff57c111fdf243b859984063e3fc' +
  'fdf40c4c4a52889706857a7c3e90e264f30f40cc87bd20e74689f14284bc5ea0a540950dfcc8d33c503477eb1c' +
  '60';
const DOC_PROOF_B =
  '00000000003eadc6000000000000000e13c509a17cbb0d81634215cd2482ab6d9eb58b332fcbe6b2c4fa458a63' +
  'd3cb0dfe3614ebe6e52657870df225d132179fa1ea0fdc2105f0e51d03bc3765a9cd059c60d434a7cae0a3d669' +
  'b37588c25410f57405c841312cfa50cf514678877a3f4ce8bd3e57723ba75a2b7d61027b2088fbabebdb7336b9' +
  '7ea88b00a7e809a6245def980eba18d987601f4cbd6c3cc9f12a5684fe7a1bc2565a9f8ab63c2db1afa8304f5e' +
  '23d4754cd97f29c8b06dcb3de4f6d3a83079676b6e9941afe5553a7195384b564ecd6d37522cb5e452cc930d2b' +
  '549af22698a8fd9bf6cad05a06b09e3f6e672b94e82c0255394b5c187ab76fda653a2491378997ba3d49f9d9c3' +
  '4ca93bc627fe5d98b327c03d429b5473f62672e9d73c4eafd9cb8f62e5158a1ec7eb56653696b10fb9ec205f5e' +
  '4d1c7a1f3e2dd2994b12eeed93e84776d8dcd8a5d78aecd4f96ae95c0b090d104adf2aa84f0a1fbd8d319fea54' +
  '76d1a306b2800716e60b00115a5cca678617361c5a89660b4536c56254bc8dd7035d96f05de62b042d16acaeff' +
  '57c111fdf243b859984063e3fcfdf40c4c4a52889706857a7c3e90e264f30f40cc87bd20e74689f14284bc5ea0' +
  'a540950dfcc8d33c503477eb1c60';
const DOC_PROOF_C =
  '00000000003eadc4000000000000000dfe3614ebe6e52657870df225d132179fa1ea0fdc2105f0e51d03bc3765' +
  'a9cd059c60d434a7cae0a3d669b37588c25410f57405c841312cfa50cf514678877a3f4ce8bd3e57723ba75a2b' +
  '7d61027b2088fbabebdb7336b97ea88b00a7e809a6245def980eba18d987601f4cbd6c3cc9f12a5684fe7a1bc2' +
  '565a9f8ab63c2db1afa8304f5e23d4754cd97f29c8b06dcb3de4f6d3a83079676b6e9941afe5553a7195384b56' +
  '4ecd6d37522cb5e452cc930d2b549af22698a8fd9bf6cad05a06b09e3f6e672b94e82c0255394b5c187ab76fda' +
  '653a2491378997ba3d49f9d9c34ca93bc627fe5d98b327c03d429b5473f62672e9d73c4eafd9cb8f62e5158a1e' +
  'c7eb56653696b10fb9ec205f5e4d1c7a1f3e2dd2994b12eeed93e84776d8dcd8a5d78aecd4f96ae95c0b090d10' +
  '4adf2aa84f0a1fbd8d319fea5476d1a306b2800716e60b00115a5cca678617361c5a89660b4536c56254bc8dd7' +
  '035d96f05de62b042d16acaeff57c111fdf243b859984063e3fcfdf40c4c4a52889706857a7c3e90e264f30f40' +
  'cc87bd20e74689f14284bc5ea0a540950dfcc8d33c503477eb1c60';
// The second `merkle_proof` of the get_outputs example: a 675-byte range proof pasted by mistake.
const DOC_RANGE_PROOF =
  '6b2abbd334c9d75409461fba9c1acd4a8d7bc2ab0bc43143f42388b2a3a87b881505ccf8ffc8737fa6fd4fe412' +
  'a082d974911bd223eae612d0d1d7ddcc09b5e6079c40b011405b2ccb49ce32473c93aea6d843488d5765fea114' +
  'd3368d34cd05fcb8c2de3903fbaf39b1f064c809f9f1c0d47959d81a508957040eda55c6dce6dd8c43a79c72fa' +
  'ffacfabe1d73055790b6249de2f7c603f186cb109eee58fb1426ea48cb781f88df9acd8996d235fe6bfe60e02a' +
  'ae6e3bfe38ed2599baca1430b3b637072d9bdcdc7644f873728e3cd38eff7124ea848cfad67f8e114cf8595c89' +
  'a3686a4271cfb2b5098597c315c01d04270ca8f70262af967a947f49adacfa4aad8b6fd196dd0ef4e5cefa132c' +
  '38c7e5f43db12b3d74f0a8d83c3404e73c6b25a12bff70a8ef4526c89b1558810bb744ede53f8c4cc8cc2555e9' +
  '53637722adb41ea5752281cf1f75599f7e59b17f11f5f9ce4f6b2da4141a3398f51d8b834cdc8b00f61915a41d' +
  '200572a10bb2102cbae7e94aa7ced3c388dcd58282932c99a8fa66f6fc511ff3e8c60d442bbdb49cca1166328c' +
  'a8c9bbc97d024570b4cc1ca6c7dba3db223e9e27fd9345b94d3cf10e2b54915b87c57e32965bc2db1b1f956d19' +
  '62812738ca9b2c93fd7825adf4dffddc97aa85ca0f3f412f02d30678a816d2efbfb6778305fd5e610b6e8af300' +
  '30bc059880c337bfde326b392d5dcd7c36cb0076fbccc7099b94f1f03bdb525d6e3818b6d50b93ced802957a4b' +
  '03892c71b6679052bd35e92ceea71a96b22b2ed2c129755f0c74fa172f43da2790f3132a7e57e408d2fc5f1126' +
  'b088cd0398e6dedcb237242e6720e12e8d7a5a1e196eda6241cfee1cc85e9d20af67f3f9bdf91160516ebcd0b8' +
  'da6bb7b12229e1112b22c9f1aaef1d75441465cfee2ac1c47b5255514316ed4637e192b00ff28491168f2f2b00';

function serKind(f: () => unknown): SerErrorKind | 'no error' | 'other' {
  try {
    f();
  } catch (e) {
    return e instanceof SerError ? e.kind : 'other';
  }
  return 'no error';
}

describe('merkle proof encoding', () => {
  it('the empty proof', () => {
    assert.equal(EMPTY_MERKLE_PROOF.mmrSize, 0n);
    assert.deepEqual(EMPTY_MERKLE_PROOF.path, []);
    assert.equal(merkleProofToHex(EMPTY_MERKLE_PROOF), '00000000000000000000000000000000');
  });

  it('mmr_size u64 ‖ path_len u64 ‖ hashes, big-endian', () => {
    const proof: MerkleProof = {
      mmrSize: 0x0102030405060708n,
      path: [new Uint8Array(32).fill(0xaa), new Uint8Array(32).fill(0xbb)],
    };
    assert.equal(
      merkleProofToHex(proof),
      ['0102030405060708', '0000000000000002', 'aa'.repeat(32), 'bb'.repeat(32)].join(''),
    );
    assert.deepEqual(merkleProofFromHex(merkleProofToHex(proof)), proof);
  });

  it('the doc examples decode to their sizes and path lengths and re-encode unchanged', () => {
    // [hex, mmr_size, path length, bytes, the output's mmr_index]
    const cases: Array<[string, bigint, number, number, bigint]> = [
      [DOC_PROOF_A, 4_091_742n, 15, 496, 4_091_742n],
      [DOC_PROOF_B, 4_107_718n, 14, 464, 4_107_717n],
      [DOC_PROOF_C, 4_107_716n, 13, 432, 4_107_716n],
    ];
    for (const [hex, size, len, bytes, leafAt] of cases) {
      assert.equal(hex.length, 2 * bytes);
      const proof = merkleProofFromHex(hex);
      assert.equal(proof.mmrSize, size);
      assert.equal(proof.path.length, len);
      assert.equal(bytes, 16 + 32 * len);
      assert.equal(merkleProofToHex(proof), hex);
      // The path has the shape our generation gives: siblings up to the peak, the bag on the
      // right (none here), then every peak on the left.
      const branch = familyBranch(leafAt, size);
      const top =
        branch.length > 0 ? (branch[branch.length - 1] as readonly [bigint, bigint])[0] : leafAt;
      const all = peaks(size);
      const shape =
        branch.length + (all.some((x) => x > top) ? 1 : 0) + all.filter((x) => x < top).length;
      assert.equal(shape, len);
    }
    // B proves leaf 4,107,717 in size 4,107,718: its sibling is leaf 4,107,716, which C proves
    // as the last peak of size 4,107,716; after that both list the same peaks to the left.
    const b = merkleProofFromHex(DOC_PROOF_B);
    const c = merkleProofFromHex(DOC_PROOF_C);
    assert.deepEqual(b.path.slice(1), c.path);
  });

  it('the range proof pasted as a merkle proof does not decode', () => {
    assert.equal(DOC_RANGE_PROOF.length, 1350);
    assert.equal(
      serKind(() => merkleProofFromHex(DOC_RANGE_PROOF)),
      'IOErr',
    );
  });

  it('typed errors for everything else that is not a proof', () => {
    assert.equal(
      serKind(() => merkleProofFromHex('zz')),
      'HexError',
    );
    assert.equal(
      serKind(() => merkleProofFromHex('000')),
      'HexError',
    );
    assert.equal(
      serKind(() => merkleProofFromHex('')),
      'IOErr',
    );
    assert.equal(
      serKind(() => merkleProofFromHex('00'.repeat(15))),
      'IOErr',
    );
    // One hash announced, none there; one hash and a stray byte.
    assert.equal(
      serKind(() => merkleProofFromHex(`${'00'.repeat(15)}01`)),
      'IOErr',
    );
    assert.equal(
      serKind(() => merkleProofFromHex(`${'00'.repeat(15)}01${'11'.repeat(33)}`)),
      'UnexpectedData',
    );
    // The largest path length does not allocate anything.
    assert.equal(
      serKind(() => merkleProofFromHex(`${'00'.repeat(8)}${'ff'.repeat(8)}`)),
      'IOErr',
    );
    // Epic's from_hex takes a 0x prefix and either case.
    assert.deepEqual(
      merkleProofFromHex(`0x${DOC_PROOF_C.toUpperCase()}`),
      merkleProofFromHex(DOC_PROOF_C),
    );
  });

  it('decoding arbitrary bytes and strings fails with SerError only', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const k = serKind(() => readMerkleProof(bytes));
        assert.notEqual(k, 'other');
        if (k === 'no error') assert.deepEqual(writeMerkleProof(readMerkleProof(bytes)), bytes);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (s) => {
        assert.notEqual(
          serKind(() => merkleProofFromHex(s)),
          'other',
        );
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.nat(5), (size, n) => {
        const proof = {
          mmrSize: size,
          path: Array.from({ length: n }, (_, i) => new Uint8Array(32).fill(i)),
        };
        assert.deepEqual(readMerkleProof(writeMerkleProof(proof)), proof);
      }),
    );
  });
});

/**
 * Epic's `verify` / `verify_consume` transcribed literally (the recursion as a loop), returning
 * the hash it compares with the root at the end.
 */
function epicRoot(proof: MerkleProof, element: Uint8Array, nodePos: bigint): Uint8Array {
  const peaksPos = peaks(proof.mmrSize);
  const path = [...proof.path];
  let elem = element;
  let pos = nodePos;
  for (;;) {
    const nodeHash = hashWithIndex(pos > proof.mmrSize ? proof.mmrSize : pos - 1n, elem);
    const sibling = path.shift();
    if (sibling === undefined) return nodeHash;
    const [parentPos, siblingPos] = family(pos);
    const x = peaksPos.indexOf(pos);
    let pair: [Uint8Array, Uint8Array];
    if (x >= 0) pair = x === peaksPos.length - 1 ? [sibling, nodeHash] : [nodeHash, sibling];
    else if (parentPos > proof.mmrSize) pair = [sibling, nodeHash];
    else pair = isLeftSibling(siblingPos) ? [sibling, nodeHash] : [nodeHash, sibling];
    elem = concatBytes(...pair);
    pos = parentPos;
  }
}

function epicVerify(
  proof: MerkleProof,
  root: Uint8Array,
  element: Uint8Array,
  nodePos: bigint,
): boolean {
  return equalBytes(root, epicRoot(proof, element, nodePos));
}

describe('merkle proof verification', () => {
  const elem = (i: number): Uint8Array => Uint8Array.of(0x5a, i >> 8, i & 0xff);

  it('agrees with Epic’s recursive verify on real and tampered proofs', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 120 }),
        fc.nat(),
        fc.integer({ min: 0, max: 8 }),
        fc.nat(),
        (n, pick, tamper, r) => {
          const mmr = new Mmr(new MemBackend({ prunable: false }));
          for (let i = 0; i < n; i++) mmr.push(elem(i));
          const i = pick % n;
          let pos = insertionToPmmrIndex(BigInt(i + 1));
          let proof = mmr.merkleProof(pos);
          let e = elem(i);
          const root = mmr.root();
          // Honest, then tampered: another size, another position, a reordered or cut path,
          // another element, another leaf, a longer path, a position past the size.
          if (tamper === 1) proof = { ...proof, mmrSize: BigInt(r % (3 * Number(mmr.size) + 1)) };
          if (tamper === 2) pos = BigInt(1 + (r % (Number(mmr.size) + 5)));
          if (tamper === 3) proof = { ...proof, path: [...proof.path].reverse() };
          if (tamper === 4)
            proof = { ...proof, path: proof.path.slice(r % (proof.path.length + 1)) };
          if (tamper === 5) e = elem(r % (n + 3));
          if (tamper === 6) pos = insertionToPmmrIndex(BigInt(1 + (r % n)));
          if (tamper === 7)
            proof = { ...proof, path: [...proof.path, root, root.slice().fill(r % 256)] };
          if (tamper === 8) pos = mmr.size + BigInt(1 + (r % 9));
          const expected = epicVerify(proof, root, e, pos);
          assert.equal(verifyMerkleProof(proof, root, e, pos), expected);
          if (tamper === 0) assert.equal(expected, true);
        },
      ),
      { numRuns: 600 },
    );
  });

  it('never throws on hostile input', () => {
    const root = new Uint8Array(32);
    const h = new Uint8Array(32);
    assert.equal(verifyMerkleProof({ mmrSize: 11n, path: [h] }, root, h, 0n), false);
    assert.equal(verifyMerkleProof({ mmrSize: 11n, path: [h] }, root, h, -3n), false);
    assert.equal(
      verifyMerkleProof({ mmrSize: 11n, path: [new Uint8Array(64)] }, root, h, 1n),
      false,
    );
    // Sizes and positions from 2^52 on are beyond any MMR a root comes from.
    assert.equal(merkleProofRoot({ mmrSize: 2n ** 64n - 1n, path: [] }, h, 1n), null);
    assert.equal(merkleProofRoot({ mmrSize: 2n ** 52n, path: [] }, h, 1n), null);
    assert.equal(merkleProofRoot({ mmrSize: 11n, path: [] }, h, 2n ** 52n), null);
    assert.notEqual(
      merkleProofRoot({ mmrSize: 2n ** 52n - 1n, path: [h, h] }, h, 2n ** 52n - 1n),
      null,
    );
    // A path far longer than the tree climbs past the size as Epic does (within u64; past
    // 2^64 Epic's positions wrap, but no such path can end at a real root anyway).
    const long = { mmrSize: 11n, path: Array(40).fill(h) };
    assert.equal(toHex(merkleProofRoot(long, h, 1n) as Uint8Array), toHex(epicRoot(long, h, 1n)));
    assert.equal(
      verifyMerkleProof({ mmrSize: 11n, path: Array(5000).fill(h) }, root, h, 1n),
      false,
    );
  });

  it('a single-leaf MMR: the empty path proves the leaf against its own hash', () => {
    const leafHash = hashWithIndex(0n, elem(7));
    assert.ok(verifyMerkleProof({ mmrSize: 1n, path: [] }, leafHash, elem(7), 1n));
    assert.ok(!verifyMerkleProof({ mmrSize: 1n, path: [] }, leafHash, elem(8), 1n));
    // A position past the size hashes with the size as index, as in Epic.
    assert.ok(
      verifyMerkleProof({ mmrSize: 1n, path: [] }, hashWithIndex(1n, elem(7)), elem(7), 5n),
    );
  });
});
