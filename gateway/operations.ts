// Each API operation once, shared by its `/v1` route and its `/v2` method: ask the actor (or
// read the state it published), shape the reply with a view. "Same payloads on /v1 and /v2"
// holds by construction.
import type { ChainHeadInfo } from '../actors/chain/messages.js';
import type { SyncStatus } from '../actors/peers/sync.js';
import { CHAIN_PARAMS, type ChainParams, type ChainType } from '../core/chain_type.js';
import { sealJson } from '../core/json/sealed.js';
import type { JsonValue } from '../core/json/value.js';
import { writeBlock } from '../core/ser/block.js';
import { encode, type WriteFn } from '../core/ser/codec.js';
import { writeKernel, writeOutput, writeTransaction } from '../core/ser/transaction.js';
import type { CoinbaseData } from '../core/serde/mining.js';
import type { Block } from '../core/types/block.js';
import type { Transaction } from '../core/types/transaction.js';
import { type ChainReadOperations, chainReadOperations } from './chain_reads.js';
import { isBusy } from './errors.js';
import { type PeerOperations, peerOperations } from './peer_ops.js';
import { type PoolRestOperations, poolRestOperations } from './pool_rest.js';
import { ROUTE_INDEX } from './routes.js';
import { NO_SYNC, type Services } from './services.js';
import { TemplateCache } from './template_cache.js';
import { TemplateFeed } from './template_feed.js';
import { statusView, tipView, versionView } from './views.js';

export interface Operations extends PeerOperations, ChainReadOperations, PoolRestOperations {
  /** Parameters of the chain served (encodings depend on them). */
  readonly chainParams: ChainParams;
  routeIndex(): Promise<JsonValue>;
  status(): Promise<JsonValue>;
  tip(): Promise<JsonValue>;
  version(): Promise<JsonValue>;
  /** validate_chain: `null`, or Epic's `Internal("chain error")` (the detail is dropped). */
  validateChain(): Promise<JsonValue>;
  /** compact_chain: `null` once done (or not due). */
  compactChain(): Promise<JsonValue>;
  /** push_transaction: `null` once in the pool; Epic's `Internal("Failed to update pool: …")`. */
  pushTransaction(tx: Transaction, fluff: boolean): Promise<JsonValue>;
  poolSize(): Promise<JsonValue>;
  stempoolSize(): Promise<JsonValue>;
  unconfirmedTransactions(): Promise<JsonValue>;
  /** The template kept for the published head, if any (the reply caches key on it). */
  currentTemplate(): JsonValue | undefined;
  /** Mining step 1 (node-api reference §8.1), shared by get_block_template and /v1. */
  blockTemplate(): Promise<JsonValue>;
  /** get_block_template's long-poll form (template_feed.ts): our extension. */
  blockTemplateLongPoll(poll: LongPoll): Promise<JsonValue>;
  /** Every new template, for the WebSocket subscribers. */
  readonly templateFeed: TemplateFeed;
  /** Mining step 2. */
  finalizeTemplate(coinbase: CoinbaseData): Promise<JsonValue>;
  /** Mining step 3: `null` once accepted; a refusal is Epic's `Internal(<chain error>)`. */
  submitBlock(block: Block): Promise<JsonValue>;
}

/** The long-poll form's parameter. */
export interface LongPoll {
  /** The id of the template the client has; null: answer at once (to learn the id). */
  readonly longpollid: string | null;
  readonly timeoutMs: number;
}

export interface NodeIdentity {
  readonly userAgent: string;
  /** The chain served: binary encodings of blocks and proofs depend on it. */
  readonly chainType: ChainType;
}

/**
 * The views of one head, built once and sealed: between blocks every get_tip, get_status and
 * get_version is answered from them, printed text included (see core/json/sealed.ts).
 */
function headViews(
  identity: NodeIdentity,
): (head: ChainHeadInfo, connections: number, sync: SyncStatus) => HeadViews {
  let last: {
    head: ChainHeadInfo;
    connections: number;
    sync: SyncStatus;
    views: HeadViews;
  } | null = null;
  return (head, connections, sync) => {
    if (last?.head === head && last.connections === connections && last.sync === sync)
      return last.views;
    const views = {
      tip: sealJson(tipView(head.tip)),
      status: sealJson(statusView({ head, userAgent: identity.userAgent, connections, sync })),
      version: sealJson(versionView(head)),
    };
    last = { head, connections, sync, views };
    return views;
  };
}

interface HeadViews {
  readonly tip: JsonValue;
  readonly status: JsonValue;
  readonly version: JsonValue;
}

function poolOperations(
  services: Services,
  params: ChainParams,
): Pick<Operations, 'pushTransaction' | 'poolSize' | 'stempoolSize' | 'unconfirmedTransactions'> {
  return {
    pushTransaction: async (tx, fluff) => {
      await services.pool('pushTransaction', {
        tx: encode(writeTransaction, tx, 2, params),
        fluff,
      });
      return null;
    },
    poolSize: async () => (await services.pool('sizes', {})).pool,
    stempoolSize: async () => (await services.pool('sizes', {})).stempool,
    unconfirmedTransactions: () => services.pool('unconfirmed', {}),
  };
}

function miningOperations(
  services: Services,
  params: ChainParams,
  log: GatewayLog | undefined,
): Pick<
  Operations,
  | 'blockTemplate'
  | 'blockTemplateLongPoll'
  | 'templateFeed'
  | 'currentTemplate'
  | 'finalizeTemplate'
  | 'submitBlock'
> {
  const v2 = <T>(write: WriteFn<T>, value: T) => encode(write, value, 2, params);
  // One template per published head, kept sealed (template_cache.ts).
  // Both steps read the pool's mineable transactions afresh, as Epic does.
  const mineable = async () => (await services.pool('mineable', {})).txs;
  // Step 2 mines what the served step 1 listed, so a coinbase paying those fees balances
  // (Epic re-reads the pool there, and a miner's coinbase can miss a newer fee).
  let served: { readonly head: object; readonly txs: Uint8Array[] } | null = null;
  const templates = new TemplateCache({
    build: async () => {
      const head = services.head();
      const txs = await mineable();
      if (head !== null) served = { head, txs };
      return services.chain('blockTemplate', { txs });
    },
    head: () => services.head(),
    poolGeneration: () => services.poolGeneration(),
  });
  const templateFeed = new TemplateFeed({
    get: () => templates.get(),
    refreshDueMs: () => templates.refreshDueMs(),
    ...(log === undefined ? {} : { log }),
  });
  services.onStateChange?.(() => templateFeed.changed());
  return {
    blockTemplate: () => templates.get(),
    blockTemplateLongPoll: async (poll) =>
      (await templateFeed.wait(poll.longpollid, poll.timeoutMs)).template,
    templateFeed,
    currentTemplate: () => templates.current(),
    finalizeTemplate: async (cb) =>
      services.chain('finalizeTemplate', {
        output: v2(writeOutput, cb.output),
        kernel: v2(writeKernel, cb.kernel),
        txs: served !== null && served.head === services.head() ? served.txs : await mineable(),
      }),
    submitBlock: async (block) => {
      await services.chain('submitBlock', { block: v2(writeBlock, block) });
      return null;
    },
  };
}

/** Where the operations report what no caller sees (a template build the feed could not make). */
export type GatewayLog = (event: string, fields: Record<string, unknown>) => void;

export function operations(
  services: Services,
  identity: NodeIdentity,
  log?: GatewayLog,
): Operations {
  const viewsOf = headViews(identity);
  // The published head when there is one; before the first event, a request to the actor.
  const views = async (): Promise<HeadViews> =>
    viewsOf(
      services.head() ?? (await services.chain('getHead', {})),
      services.connectedPeers().length,
      services.syncStatus?.() ?? NO_SYNC,
    );
  return {
    chainParams: CHAIN_PARAMS[identity.chainType],
    routeIndex: async () => [...ROUTE_INDEX],
    status: async () => (await views()).status,
    tip: async () => (await views()).tip,
    version: async () => (await views()).version,
    validateChain: async () => {
      try {
        await services.chain('validateChain', {});
      } catch (e) {
        if (isBusy(e)) throw e;
        throw new Error('chain error');
      }
      return null;
    },
    compactChain: async () => {
      await services.chain('compactChain', {});
      return null;
    },
    ...chainReadOperations(services),
    ...poolOperations(services, CHAIN_PARAMS[identity.chainType]),
    ...miningOperations(services, CHAIN_PARAMS[identity.chainType], log),
    ...peerOperations(services, identity.chainType),
    ...poolRestOperations(services, identity.chainType),
  };
}
