// Printable header, kernel and block forms against Epic's own values: the mainnet genesis
// header as Epic's API prints it (node-api reference §4.1), and the two signature layouts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CHAIN_PARAMS } from '../../../core/chain_type.js';
import { genesisBlock } from '../../../core/genesis.js';
import { parseJson } from '../../../core/json/parse.js';
import { stringifyJson } from '../../../core/json/stringify.js';
import { headerHash } from '../../../core/ser/header.js';
import {
  blockPrintable,
  compactBlockPrintable,
  headerPrintable,
  kernelPrintable,
} from '../../../core/serde/printable_block.js';
import type { BlockHeader } from '../../../core/types/block.js';

const sorted = (v: Parameters<typeof stringifyJson>[0]) => stringifyJson(v, { sortKeys: true });

/** Epic's get_header(0) on mainnet, verbatim from the reference. */
const MAINNET_GENESIS = `{
  "edge_bits":29,
  "hash":"454018a56d86e37611bdcabc7de670305c3f3dc9675e314b437f1adc29430851",
  "height":0,
  "kernel_root":"4d9ddf437dfbb86f8563ac4e96a0d86842eda609a5125244f43261d4188292e4",
  "nonce":41,
  "output_root":"b10fe806a4373d9b8d8edde98a4ec39d726b542036971c2f14c0738b0605c9cd",
  "prev_root":"00000000000000000004de683e7aa4d35c51f46ec76c6852b0f3161bd1e2e00e",
  "previous":"0000000000000000000000000000000000000000000000000000000000000000",
  "proof":"Cuckoo",
  "range_proof_root":"e05333e51d9294f08cd6d2d7cea19de2843f92c285a61fd5d61d771c3ac74222",
  "secondary_scaling":1856,
  "solution":{"Cuckoo":[4391451,36730677,38198400,38797304,60700446,72910191,73050441,110099816,140885802,145512513,149311222,149994636,157557529,160778700,162870981,179649435,194194460,227378628,230933064,252046196,272053956,277878683,288331253,290266880,293973036,305315023,321927758,353841539,356489212,373843111,381697287,389274717,403108317,409994705,411629694,431823422,441976653,521469643,521868369,523044572,524964447,530250249]},
  "timestamp":"2019-08-09T17:04:38+00:00",
  "total_difficulty":{"cuckaroo":4,"cuckatoo":16384,"progpow":1073741824,"randomx":4194304},
  "total_kernel_offset":"0000000000000000000000000000000000000000000000000000000000000000",
  "version":6}`;

describe('headerPrintable', () => {
  it('prints the mainnet genesis header exactly as Epic', () => {
    const g = genesisBlock('mainnet');
    const hash = headerHash(g.header, CHAIN_PARAMS.mainnet);
    assert.equal(sorted(headerPrintable(g.header, hash)), sorted(parseJson(MAINNET_GENESIS)));
  });

  it('keeps Epic declaration order (what /v1 prints)', () => {
    const g = genesisBlock('mainnet');
    const keys = Object.keys(headerPrintable(g.header, new Uint8Array(32)) as object);
    assert.deepEqual(keys, [
      'hash',
      'version',
      'height',
      'previous',
      'prev_root',
      'timestamp',
      'output_root',
      'range_proof_root',
      'kernel_root',
      'nonce',
      'edge_bits',
      'proof',
      'solution',
      'total_difficulty',
      'secondary_scaling',
      'total_kernel_offset',
    ]);
  });

  it('prints a nonce and difficulties above 2^53 exactly', () => {
    const g = genesisBlock('mainnet').header;
    const big: BlockHeader = {
      ...g,
      pow: {
        ...g.pow,
        nonce: 18446744073709551615n,
        totalDifficulty: { cuckaroo: 9007199254740993n, cuckatoo: 1n, randomx: 2n, progpow: 3n },
      },
    };
    const text = stringifyJson(headerPrintable(big, new Uint8Array(32)));
    assert.match(text, /"nonce":18446744073709551615,/);
    assert.match(text, /"total_difficulty":\{"cuckaroo":9007199254740993,"cuckatoo":1,/);
  });

  it('prints RandomX as a big-endian decimal and ProgPow as mix bytes, both with edge_bits 16', () => {
    const g = genesisBlock('mainnet').header;
    const hash = new Uint8Array(32);
    hash[30] = 1;
    hash[31] = 2; // 0x0102 = 258
    const rx: BlockHeader = { ...g, pow: { ...g.pow, proof: { kind: 'RandomX', hash } } };
    const p = headerPrintable(rx, new Uint8Array(32)) as { [k: string]: unknown };
    assert.deepEqual([p.edge_bits, p.proof, p.solution], [16, 'RandomX', { RandomX: '258' }]);
    const mix = Uint8Array.from({ length: 32 }, (_, i) => i);
    const pp: BlockHeader = { ...g, pow: { ...g.pow, proof: { kind: 'ProgPow', mix } } };
    const q = headerPrintable(pp, new Uint8Array(32)) as { [k: string]: unknown };
    assert.deepEqual([q.edge_bits, q.proof, q.solution], [16, 'ProgPow', { ProgPow: [...mix] }]);
  });
});

describe('kernelPrintable and blockPrintable', () => {
  const sig = Uint8Array.from({ length: 64 }, (_, i) => i);
  const excess = new Uint8Array(33).fill(9);

  it('flattens features and keeps the raw signature bytes', () => {
    assert.deepEqual(
      kernelPrintable({
        features: { kind: 'HeightLocked', fee: 7n, lockHeight: 99n },
        excess,
        excessSig: sig,
      }),
      {
        features: 'HeightLocked',
        fee: 7n,
        lock_height: 99n,
        excess: '09'.repeat(33),
        excess_sig: Buffer.from(sig).toString('hex'),
      },
    );
    assert.deepEqual(kernelPrintable({ features: { kind: 'Coinbase' }, excess, excessSig: sig }), {
      features: 'Coinbase',
      fee: 0n,
      lock_height: 0n,
      excess: '09'.repeat(33),
      excess_sig: Buffer.from(sig).toString('hex'),
    });
  });

  it('lists inputs as bare commitments and takes the outputs it is given', () => {
    const g = genesisBlock('mainnet');
    const commit = new Uint8Array(33).fill(1);
    const block = {
      header: g.header,
      body: {
        inputs: [{ features: 'Plain' as const, commit }],
        outputs: [],
        kernels: [{ features: { kind: 'Plain' as const, fee: 5n }, excess, excessSig: sig }],
      },
    };
    const b = blockPrintable(block, new Uint8Array(32), ['x']) as { [k: string]: unknown };
    assert.deepEqual(Object.keys(b), ['header', 'inputs', 'outputs', 'kernels']);
    assert.deepEqual(b.inputs, ['01'.repeat(33)]);
    assert.deepEqual(b.outputs, ['x']);
    assert.deepEqual((b.kernels as { fee: bigint }[])[0]?.fee, 5n);
  });

  it('prints a compact block: printed coinbase outputs, printable kernels, hex short ids', () => {
    const g = genesisBlock('mainnet');
    const k = { features: { kind: 'Coinbase' as const }, excess, excessSig: sig };
    const id = Uint8Array.from([1, 2, 3, 4, 5, 6]);
    const c = compactBlockPrintable(g.header, new Uint8Array(32), ['o'], [k], [id]);
    assert.deepEqual(c, {
      header: headerPrintable(g.header, new Uint8Array(32)),
      out_full: ['o'],
      kern_full: [kernelPrintable(k)],
      kern_ids: ['010203040506'],
    });
  });
});
