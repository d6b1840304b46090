// The work a miner builds on the head, the same way for the local test miner (loop.ts) and the
// stratum server: the chain's template, a coinbase for its height and fees (the wallet's
// `build_coinbase`, or a burnt one from the miner actor), and the chain's finalized block around
// it. The coinbase is kept while height and fees stay (a rebuild only picks up transactions),
// and the wallet's unmined key id is handed back to it, as Epic does, until a block is accepted.

import { equalBytes } from '../../core/bytes.js';
import { CHAIN_PARAMS, type ChainParams, type ChainType } from '../../core/chain_type.js';
import { isFoundationHeight } from '../../core/consensus/rewards.js';
import type { JsonValue } from '../../core/json/value.js';
import { encode } from '../../core/ser/codec.js';
import { writeKernel, writeOutput } from '../../core/ser/transaction.js';
import {
  type BlockTemplate,
  blockTemplateFromJson,
  type FinalizedBlockTemplate,
  finalizedTemplateFromJson,
} from '../../core/serde/mining.js';
import type { Transaction } from '../../core/types/transaction.js';
import type { CoinbaseBytes } from './messages.js';
import { buildCoinbase, type WalletCoinbase } from './wallet.js';

const V2 = 2;

/** The chain's two template steps, as the builder asks them. */
export interface TemplatePort {
  blockTemplate(): Promise<JsonValue>;
  finalizeTemplate(coinbase: CoinbaseBytes): Promise<JsonValue>;
}

/**
 * The template steps around the pool's mineable transactions: the second step finalizes with the
 * transactions the first listed, since the coinbase was built for their fees.
 */
export function poolTemplatePort(
  mineable: () => Promise<Uint8Array[]>,
  blockTemplate: (txs: Uint8Array[]) => Promise<JsonValue>,
  finalize: (req: CoinbaseBytes & { readonly txs: Uint8Array[] }) => Promise<JsonValue>,
): TemplatePort {
  let listed: Uint8Array[] = [];
  return {
    blockTemplate: async () => {
      listed = await mineable();
      return blockTemplate(listed);
    },
    finalizeTemplate: (cb) => finalize({ ...cb, txs: listed }),
  };
}

/** The miner actor's coinbase help. */
export interface CoinbasePort {
  coinbaseFees(height: bigint, fees: bigint): Promise<bigint>;
  burnCoinbase(height: bigint, fees: bigint): Promise<CoinbaseBytes>;
}

export type WalletBuild = (
  url: string,
  fees: { fees: bigint; height: bigint; keyId: Uint8Array | null },
) => Promise<WalletCoinbase>;

export interface WorkOptions {
  readonly chainType: ChainType;
  /** The wallet's listener; null: burnt coinbases. */
  readonly walletUrl: string | null;
  /** Build a coinbase through the wallet (tests may substitute it). */
  readonly wallet?: WalletBuild;
}

export interface Work {
  readonly template: BlockTemplate;
  readonly finalized: FinalizedBlockTemplate;
}

export function totalFees(txs: readonly Transaction[]): bigint {
  let fees = 0n;
  for (const tx of txs)
    for (const k of tx.body.kernels) if (k.features.kind !== 'Coinbase') fees += k.features.fee;
  return fees;
}

interface Kept {
  readonly key: string;
  readonly bytes: CoinbaseBytes;
}

function keyOf(height: bigint, fees: bigint): string {
  return `${height}:${fees}`;
}

export class WorkBuilder {
  readonly #params: ChainParams;
  #cached: Kept | null = null;
  /**
   * A burnt coinbase being made, or made, ahead for the next height (prepareNext); a build for
   * that height waits for it rather than making another.
   */
  #ahead: { readonly key: string; readonly bytes: Promise<CoinbaseBytes> } | null = null;
  /** Epic hands the wallet's last unmined key id back, so derivations are not wasted. */
  #keyId: Uint8Array | null = null;

  constructor(
    private readonly chain: TemplatePort,
    private readonly miner: CoinbasePort,
    private readonly opts: WorkOptions,
  ) {
    this.#params = CHAIN_PARAMS[opts.chainType];
  }

  get params(): ChainParams {
    return this.#params;
  }

  /**
   * Work on the head; null when the head moved between the chain's two steps. `onHeight` hears
   * the template's height as soon as it is known, before the coinbase and the finalize step.
   */
  async build(onHeight?: (height: bigint) => void): Promise<Work | null> {
    const template = blockTemplateFromJson(
      await this.chain.blockTemplate(),
      'template',
      this.#params,
    );
    onHeight?.(template.height);
    const coinbase = await this.#coinbase(template.height, totalFees(template.transactions));
    const finalized = finalizedTemplateFromJson(
      await this.chain.finalizeTemplate(coinbase),
      'finalized',
      this.#params,
    );
    if (!equalBytes(finalized.header.prevHash, template.header.prevHash)) return null;
    return { template, finalized };
  }

  /**
   * Makes the burnt coinbase of `height` with no fees now, between blocks, so that the first
   * build on the next head (a quiet chain's next template has no fees) skips its range proof,
   * which is most of the time from a new head to new work. Wallet coinbases are not made ahead:
   * one made for a height that another miner wins would leave a wasted key in the wallet.
   */
  async prepareNext(height: bigint): Promise<void> {
    const key = keyOf(height, 0n);
    if (this.opts.walletUrl !== null) return;
    if (this.#ahead?.key === key || this.#cached?.key === key) return;
    const bytes = this.#fees(height, 0n).then((fees) => this.miner.burnCoinbase(height, fees));
    this.#ahead = { key, bytes };
    try {
      await bytes;
    } catch (e) {
      if (this.#ahead?.bytes === bytes) this.#ahead = null;
      throw e;
    }
  }

  /** A block was accepted: its coinbase and key id are spent. */
  spent(): void {
    this.#cached = null;
    this.#keyId = null;
  }

  async #coinbase(height: bigint, txFees: bigint): Promise<CoinbaseBytes> {
    const key = keyOf(height, txFees);
    if (this.#cached?.key === key) return this.#cached.bytes;
    const ahead = this.#ahead;
    if (ahead?.key === key) {
      this.#ahead = null;
      const bytes = await ahead.bytes.catch(() => null);
      if (bytes !== null) {
        this.#cached = { key, bytes };
        return bytes;
      }
    }
    const fees = await this.#fees(height, txFees);
    const bytes =
      this.opts.walletUrl === null
        ? await this.miner.burnCoinbase(height, fees)
        : await this.#walletCoinbase(this.opts.walletUrl, height, fees);
    this.#cached = { key, bytes };
    return bytes;
  }

  /** What the coinbase pays beyond the reward: the fees, and at foundation heights its levy. */
  #fees(height: bigint, txFees: bigint): Promise<bigint> {
    return isFoundationHeight(this.opts.chainType, height)
      ? this.miner.coinbaseFees(height, txFees)
      : Promise.resolve(txFees);
  }

  async #walletCoinbase(url: string, height: bigint, fees: bigint): Promise<CoinbaseBytes> {
    const build = this.opts.wallet ?? buildCoinbase;
    const cb = await build(url, { fees, height, keyId: this.#keyId });
    this.#keyId = cb.keyId;
    return {
      output: encode(writeOutput, cb.output, V2, this.#params),
      kernel: encode(writeKernel, cb.kernel, V2, this.#params),
    };
  }
}
