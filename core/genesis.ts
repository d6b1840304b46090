// Genesis blocks of the four chain types, built as values (Epic 4.0 `core/src/genesis.rs`).
import { fromHex } from './bytes.js';
import type { ChainParams, ChainType } from './chain_type.js';
import { CHAIN_PARAMS } from './chain_type.js';
import { ZERO_HASH } from './hash/blake2b.js';
import type { Block, BlockHeader } from './types/block.js';
import type { Difficulty, Policy } from './types/pow.js';

function hash(hex: string): Uint8Array {
  const b = fromHex(hex);
  if (b === null || b.length !== 32) throw new Error(`bad genesis constant ${hex}`);
  return b;
}

const zero = (): Uint8Array => ZERO_HASH.slice();
const EMPTY_BODY = { inputs: [], outputs: [], kernels: [] } as const;
const ALL_ONE: Difficulty = { cuckaroo: 1n, cuckatoo: 1n, randomx: 1n, progpow: 1n };
const NO_BOTTLES: Policy = { cuckaroo: 0, cuckatoo: 0, randomx: 0, progpow: 0 };
const CUCKAROO_BOTTLE: Policy = { cuckaroo: 1, cuckatoo: 0, randomx: 0, progpow: 0 };

// 2019-08-09T17:04:38Z and 1997-08-04T00:00:00Z.
const PUBLIC_GENESIS_TIME = 1_565_370_278;
const DEV_GENESIS_TIME = 870_652_800;

const MAINNET_NONCES = [
  4391451, 36730677, 38198400, 38797304, 60700446, 72910191, 73050441, 110099816, 140885802,
  145512513, 149311222, 149994636, 157557529, 160778700, 162870981, 179649435, 194194460, 227378628,
  230933064, 252046196, 272053956, 277878683, 288331253, 290266880, 293973036, 305315023, 321927758,
  353841539, 356489212, 373843111, 381697287, 389274717, 403108317, 409994705, 411629694, 431823422,
  441976653, 521469643, 521868369, 523044572, 524964447, 530250249,
];

const FLOONET_NONCES = [
  16994232, 22975978, 32664019, 44016212, 50238216, 57272481, 85779161, 124272202, 125203242,
  133907662, 140522149, 145870823, 147481297, 164952795, 177186722, 183382201, 197418356, 211393794,
  239282197, 239323031, 250757611, 281414565, 305112109, 308151499, 357235186, 374041407, 389924708,
  390768911, 401322239, 401886855, 406986280, 416797005, 418935317, 429007407, 439527429, 484809502,
  486257104, 495589543, 495892390, 525019296, 529899691, 531685572,
];

interface PublicGenesis {
  prevRoot: string;
  outputRoot: string;
  rangeProofRoot: string;
  kernelRoot: string;
  totalDifficulty: Difficulty;
  nonce: bigint;
  nonces: readonly number[];
}

const MAINNET: PublicGenesis = {
  prevRoot: '00000000000000000004de683e7aa4d35c51f46ec76c6852b0f3161bd1e2e00e',
  outputRoot: 'b10fe806a4373d9b8d8edde98a4ec39d726b542036971c2f14c0738b0605c9cd',
  rangeProofRoot: 'e05333e51d9294f08cd6d2d7cea19de2843f92c285a61fd5d61d771c3ac74222',
  kernelRoot: '4d9ddf437dfbb86f8563ac4e96a0d86842eda609a5125244f43261d4188292e4',
  totalDifficulty: {
    cuckaroo: 4n,
    cuckatoo: 16_384n,
    randomx: 4_194_304n,
    progpow: 1_073_741_824n,
  },
  nonce: 41n,
  nonces: MAINNET_NONCES,
};

const FLOONET: PublicGenesis = {
  prevRoot: '00000000000000000017ff4903ef366c8f62e3151ba74e41b8332a126542f538',
  outputRoot: '73b5e0a05ea9e1e4e33b8f1c723bc5c10d17f07042c2af7644f4dbb61f4bc556',
  rangeProofRoot: '667a3ba22f237a875f67c9933037c8564097fa57a3e75be507916de28fc0da26',
  kernelRoot: 'cfdddfe2d938d0026f8b1304442655bbdddde175ff45ddf44cb03bcb0071a72d',
  totalDifficulty: { cuckaroo: 4n, cuckatoo: 16_384n, randomx: 8_192n, progpow: 67_108_864n },
  nonce: 23n,
  nonces: FLOONET_NONCES,
};

function publicGenesis(g: PublicGenesis): BlockHeader {
  return {
    version: 6,
    height: 0n,
    timestamp: PUBLIC_GENESIS_TIME,
    prevHash: zero(),
    prevRoot: hash(g.prevRoot),
    outputRoot: hash(g.outputRoot),
    rangeProofRoot: hash(g.rangeProofRoot),
    kernelRoot: hash(g.kernelRoot),
    totalKernelOffset: zero(),
    outputMmrSize: 0n,
    kernelMmrSize: 0n,
    pow: {
      totalDifficulty: g.totalDifficulty,
      secondaryScaling: 1856,
      nonce: g.nonce,
      proof: { kind: 'Cuckoo', edgeBits: 29, nonces: g.nonces.map(BigInt) },
      seed: zero(),
    },
    policy: 0,
    bottles: CUCKAROO_BOTTLE,
  };
}

/** Epic's `genesis_dev` (usernet and automated testing): unmined, all-zero proof. */
function devGenesis(p: ChainParams, nonce: bigint): BlockHeader {
  return {
    version: 6,
    height: 0n,
    timestamp: DEV_GENESIS_TIME,
    prevHash: zero(),
    prevRoot: zero(),
    outputRoot: zero(),
    rangeProofRoot: zero(),
    kernelRoot: zero(),
    totalKernelOffset: zero(),
    outputMmrSize: 0n,
    kernelMmrSize: 0n,
    pow: {
      totalDifficulty: ALL_ONE,
      secondaryScaling: 1,
      nonce,
      proof: { kind: 'Cuckoo', edgeBits: p.minEdgeBits, nonces: new Array(p.proofSize).fill(0n) },
      seed: zero(),
    },
    policy: 0,
    bottles: NO_BOTTLES,
  };
}

export function genesisHeader(type: ChainType): BlockHeader {
  switch (type) {
    case 'mainnet':
      return publicGenesis(MAINNET);
    case 'floonet':
      return publicGenesis(FLOONET);
    case 'usernet':
      return devGenesis(CHAIN_PARAMS.usernet, 27_944n);
    case 'automated':
      return devGenesis(CHAIN_PARAMS.automated, 0n);
  }
}

/** Genesis has an empty body: no coinbase, no foundation output. */
export function genesisBlock(type: ChainType): Block {
  return { header: genesisHeader(type), body: EMPTY_BODY };
}
