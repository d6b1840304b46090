// The four chain types and their parameters (Epic 4.0 `core/src/global.rs`, `consensus.rs`,
// `config/src/config.rs`). The automated-testing chain is our default dev chain; Epic refuses to
// run it as a server, so its ports are our choice (docs/decisions.md).
import type { WireParams } from './ser/params.js';

export type ChainType = 'mainnet' | 'floonet' | 'usernet' | 'automated';
export const CHAIN_TYPES: readonly ChainType[] = ['mainnet', 'floonet', 'usernet', 'automated'];

export interface ChainParams extends WireParams {
  readonly type: ChainType;
  /** Directory under ~/.mwnode and Epic's `shortname()`. */
  readonly shortName: 'main' | 'floo' | 'user' | 'auto';
  readonly apiPort: number;
  readonly p2pPort: number;
  readonly walletForeignPort: number;
  readonly stratumPort: number;
  /** p2p message magic. */
  readonly magic: readonly [number, number];
  /** Height of the difficulty-fix fork ("era1"). */
  readonly difficultyEraHeight: bigint;
  readonly minEdgeBits: number;
  readonly baseEdgeBits: number;
  readonly coinbaseMaturity: bigint;
  readonly cutThroughHorizon: bigint;
  readonly stateSyncThreshold: bigint;
  readonly txhashsetArchiveInterval: bigint;
  readonly initialGraphWeight: number;
  readonly foundationHeight: bigint;
  /** SHA-256 (LF line ends) of the foundation file this chain pays from. */
  readonly foundationSha256: string;
}

const FLOONET_FOUNDATION_SHA256 =
  '503a4d5ccf214df86722d14cc93c1779c54e5b827773c8a2f65888a06f2efbad';
const MAINNET_FOUNDATION_SHA256 =
  '5a3a7584127dd31fba18eaeff1c551bfaa74b4e50e537a1e1904fe6730b17f5c';

const BLOCKS_PER_DAY = 1440n;
const MAINNET_LIKE = {
  proofSize: 42,
  maxBlockWeight: 40_000,
  minEdgeBits: 19,
  baseEdgeBits: 24,
  cutThroughHorizon: 10_080n,
  stateSyncThreshold: 2_880n,
  txhashsetArchiveInterval: 720n,
  initialGraphWeight: 7_936,
  foundationHeight: BLOCKS_PER_DAY,
} as const;

const TESTING_LIKE = {
  maxBlockWeight: 150,
  coinbaseMaturity: 3n,
  cutThroughHorizon: 70n,
  stateSyncThreshold: 20n,
  txhashsetArchiveInterval: 10n,
  initialGraphWeight: 1,
  headerV7Height: 6n,
  difficultyEraHeight: 50n,
  foundationSha256: FLOONET_FOUNDATION_SHA256,
} as const;

export const CHAIN_PARAMS: Readonly<Record<ChainType, ChainParams>> = {
  mainnet: {
    ...MAINNET_LIKE,
    type: 'mainnet',
    shortName: 'main',
    apiPort: 3413,
    p2pPort: 3414,
    walletForeignPort: 3415,
    stratumPort: 3416,
    magic: [97, 61],
    headerV7Height: 9_000_000n,
    difficultyEraHeight: 501_160n,
    coinbaseMaturity: BLOCKS_PER_DAY,
    foundationSha256: MAINNET_FOUNDATION_SHA256,
  },
  floonet: {
    ...MAINNET_LIKE,
    type: 'floonet',
    shortName: 'floo',
    apiPort: 13413,
    p2pPort: 13414,
    walletForeignPort: 13415,
    stratumPort: 13416,
    magic: [83, 59],
    headerV7Height: 25_800n,
    difficultyEraHeight: 200n,
    coinbaseMaturity: 30n,
    foundationSha256: FLOONET_FOUNDATION_SHA256,
  },
  usernet: {
    ...TESTING_LIKE,
    type: 'usernet',
    shortName: 'user',
    apiPort: 23413,
    p2pPort: 23414,
    walletForeignPort: 23415,
    stratumPort: 23416,
    magic: [73, 43],
    proofSize: 42,
    minEdgeBits: 15,
    baseEdgeBits: 15,
    foundationHeight: BLOCKS_PER_DAY,
  },
  automated: {
    ...TESTING_LIKE,
    type: 'automated',
    shortName: 'auto',
    apiPort: 33413,
    p2pPort: 33414,
    walletForeignPort: 33415,
    stratumPort: 33416,
    magic: [73, 43],
    proofSize: 4,
    minEdgeBits: 9,
    baseEdgeBits: 9,
    foundationHeight: 5n,
  },
};

export function chainParams(type: ChainType): ChainParams {
  return CHAIN_PARAMS[type];
}
