// `npm run bench -- ser`: headers and full blocks decoded + hashed per second (mainnet format),
// against a baseline measured in the same run: BLAKE2b alone over the same bytes.
import { compareBytes } from '../core/bytes.js';
import { CHAIN_PARAMS } from '../core/chain_type.js';
import { genesisHeader } from '../core/genesis.js';
import { blake2b256 } from '../core/hash/blake2b.js';
import { readBlock, writeBlock } from '../core/ser/block.js';
import { decode, encode, hashOf, type WriteFn } from '../core/ser/codec.js';
import { headerHash, readHeader, writeHeader } from '../core/ser/header.js';
import { writeInput, writeKernel, writeOutput } from '../core/ser/transaction.js';
import type { Block } from '../core/types/block.js';
import type { Input, Output, TxKernel } from '../core/types/transaction.js';
import { measure, saveResults } from './lib/harness.js';

const params = CHAIN_PARAMS.mainnet;
// xorshift32: deterministic filler bytes, distinct enough that no two items collide.
let state = 0x9e3779b9;
function rand(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    out[i] = state & 0xff;
  }
  return out;
}

function sorted<T>(items: T[], write: WriteFn<T>): T[] {
  return items
    .map((x) => ({ x, h: hashOf(write, x, params) }))
    .sort((a, b) => compareBytes(a.h, b.h))
    .map((k) => k.x);
}

/** A block of `txs` 1-input/2-output transactions plus the coinbase (weight 46 per tx). */
function makeBlock(txs: number): Block {
  const inputs: Input[] = [];
  const outputs: Output[] = [{ features: 'Coinbase', commit: rand(33), proof: rand(675) }];
  const kernels: TxKernel[] = [
    { features: { kind: 'Coinbase' }, excess: rand(33), excessSig: rand(64) },
  ];
  for (let i = 0; i < txs; i++) {
    inputs.push({ features: 'Plain', commit: rand(33) });
    outputs.push(
      { features: 'Plain', commit: rand(33), proof: rand(675) },
      { features: 'Plain', commit: rand(33), proof: rand(675) },
    );
    kernels.push({
      features: { kind: 'Plain', fee: 8_000_000n },
      excess: rand(33),
      excessSig: rand(64),
    });
  }
  const header = { ...genesisHeader('mainnet'), height: 1n };
  return {
    header,
    body: {
      inputs: sorted(inputs, writeInput),
      outputs: sorted(outputs, writeOutput),
      kernels: sorted(kernels, writeKernel),
    },
  };
}

const header = genesisHeader('mainnet');
const headerBytes = encode(writeHeader, header, 2, params).slice();
const block = makeBlock(200);
const blockBytes = encode(writeBlock, block, 2, params).slice();
process.stdout.write(
  `header ${headerBytes.length} bytes; block ${blockBytes.length} bytes (200 txs, ${block.body.outputs.length} outputs)\n`,
);

const results = [
  measure('baseline: blake2b over the header bytes', () => blake2b256(headerBytes)),
  measure('header: decode + hash', () =>
    headerHash(decode(readHeader, headerBytes, 2, params, 'header'), params),
  ),
  measure('baseline: blake2b over the block bytes', () => blake2b256(blockBytes)),
  measure('block (200 txs): decode + hash', () =>
    headerHash(decode(readBlock, blockBytes, 2, params, 'block').header, params),
  ),
];
const [hb, h, bb, b] = results.map((r) => r.opsPerSec) as [number, number, number, number];
const ratios = {
  header_vs_blake2b_of_its_bytes: h / hb,
  block_vs_blake2b_of_its_bytes: b / bb,
};
process.stdout.write(
  `header decode+hash = ×${ratios.header_vs_blake2b_of_its_bytes.toFixed(2)} of hashing its bytes once\n`,
);
process.stdout.write(
  `block decode+hash = ×${ratios.block_vs_blake2b_of_its_bytes.toFixed(2)} of hashing its bytes once\n`,
);
saveResults('ser', results, ratios);
