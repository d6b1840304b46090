// What the P2P layer asks of the chain and pool actors (through the runtime's actor links), in
// the shapes relay.ts and serve.ts take. Blocks go to the chain in protocol-v2 bytes, as the API
// submits them; a refusal comes back as its chain error kind (the runtime carries it as `code`).
import type { MsgParams } from '../../core/p2p/msg.js';
import { writeBlock } from '../../core/ser/block.js';
import { encode } from '../../core/ser/codec.js';
import { headerHash } from '../../core/ser/header.js';
import { writeTransaction } from '../../core/ser/transaction.js';
import type { LinkedActor } from '../../runtime/index.js';
import type { ChainProtocol } from '../chain/messages.js';
import type { PoolProtocol } from '../pool/messages.js';
import type { RelaySources } from './relay.js';
import type { ServeSources } from './serve.js';
import type { ArchiveFile } from './serve_archive.js';
import type { StateSyncChain } from './state_sync.js';
import type { SyncChain } from './sync.js';
import type { TxSources } from './tx_relay.js';

/** How long one ask of the P2P layer may wait: a peer that waits longer asks elsewhere. */
const ASK_MS = 10_000;
/** Building our archive from the chain store (the first time at a header) may take minutes. */
const ARCHIVE_BUILD_MS = 30 * 60_000;
/** Validating and importing an archive: every range proof and kernel signature of the chain. */
const ARCHIVE_WRITE_MS = 12 * 60 * 60_000;

export function relaySources(
  chain: LinkedActor<ChainProtocol>,
  pool: LinkedActor<PoolProtocol>,
  params: MsgParams,
): RelaySources {
  return {
    submit: async (block) => {
      try {
        await chain.ask(
          'submitBlock',
          { block: encode(writeBlock, block, 2, params), source: 'peer' },
          { deadlineMs: ASK_MS },
        );
        return { ok: true };
      } catch (e) {
        const code = (e as { code?: unknown } | null)?.code;
        return { code: typeof code === 'string' ? code : 'Internal' };
      }
    },
    // The full block, not the header: header sync stores headers whose bodies are still to come.
    hasBlock: async (hash) =>
      (await chain.ask('blockByHash', { hash }, { deadlineMs: ASK_MS })) !== null,
    compactTxs: (cb, hash) =>
      pool.ask(
        'compactTxs',
        { blockHash: hash, nonce: cb.nonce, kernIds: [...cb.body.kernIds] },
        { deadlineMs: ASK_MS },
      ),
  };
}

export function serveSources(
  chain: LinkedActor<ChainProtocol>,
  pool: LinkedActor<PoolProtocol>,
): ServeSources {
  const opts = { deadlineMs: ASK_MS };
  return {
    headersForLocator: async (locator, offset) =>
      (await chain.ask('headersForLocator', { locator: [...locator], offset }, opts)).headers,
    block: (hash) => chain.ask('blockByHash', { hash }, opts),
    compactBlock: (hash) => chain.ask('compactBlockByHash', { hash }, opts),
    transaction: (hash) => pool.ask('txByKernelHash', { hash }, opts),
  };
}

/** A peer's transaction the pool refused is logged (`peer_tx_refused`), never banned, as Epic. */
export function txSources(
  pool: LinkedActor<PoolProtocol>,
  params: MsgParams,
  log: (event: string, fields: Record<string, unknown>) => void,
): TxSources {
  const opts = { deadlineMs: ASK_MS };
  return {
    push: async (tx, fluff) => {
      const bytes = encode(writeTransaction, tx, 2, params);
      try {
        await pool.ask('pushTransaction', { tx: bytes, fluff, source: 'Broadcast' }, opts);
      } catch (e) {
        log('peer_tx_refused', { fluff, error: e instanceof Error ? e.message : String(e) });
        throw e;
      }
    },
    has: async (hash) => (await pool.ask('txByKernelHash', { hash }, opts)) !== null,
  };
}

export function syncSources(chain: LinkedActor<ChainProtocol>, params: MsgParams): SyncChain {
  const opts = { deadlineMs: ASK_MS };
  return {
    heads: async () => {
      const s = await chain.ask('syncState', {}, opts);
      return {
        head: s.head,
        headerHead: s.headerHead,
        syncHead: s.syncHead,
        recentWork: s.recentWork,
      };
    },
    // Epic asks from its sync head, which each accepted batch moves forward.
    locator: (): Promise<{ hashes: Uint8Array[]; height: bigint }> =>
      chain.ask('locator', { from: 'sync_head' }, opts),
    // A batch of 512 headers with their proofs can take longer than one ask usually waits.
    syncHeaders: async (headers) => {
      await chain.ask('syncHeaders', { headers: [...headers] }, { deadlineMs: 120_000 });
    },
    missingBodies: async (max) => (await chain.ask('missingBodies', { max }, opts)).hashes,
    resetSyncHead: async () => {
      await chain.ask('resetSyncHead', {}, opts);
    },
    hashOf: (header) => headerHash(header, params),
  };
}

/** The chain's archive for peers (what TxHashSetRequest is answered with). */
export function archiveSource(chain: LinkedActor<ChainProtocol>): () => Promise<ArchiveFile> {
  return () => chain.ask('txhashsetArchive', {}, { deadlineMs: ARCHIVE_BUILD_MS });
}

export function stateSyncSources(chain: LinkedActor<ChainProtocol>): StateSyncChain {
  const opts = { deadlineMs: ASK_MS };
  return {
    target: () => chain.ask('stateSyncTarget', {}, opts),
    write: (req) =>
      chain.ask(
        'txhashsetWrite',
        { hash: req.hash, height: req.height, path: req.path },
        { deadlineMs: ARCHIVE_WRITE_MS },
      ),
    downloadDir: async () => (await chain.ask('downloadDir', {}, opts)).path,
  };
}
