// Shared by the wallet_service tests of the lifecycle, read, updater, scan and foreign parts: a
// real WalletLifecycle in a temporary directory, a NodeClient (a real node or a closed port),
// a fixed clock, and a block miner whose coinbase the wallet itself builds.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WalletApi } from '../../../actors/wallet/api.js';
import { exclusiveRunner, StatusQueue, type WalletEnv } from '../../../actors/wallet/env.js';
import { WalletLifecycle } from '../../../actors/wallet/lifecycle.js';
import { NodeClient } from '../../../actors/wallet/node_client.js';
import { defaultWalletConfig } from '../../../config/wallet_toml.js';
import { buildBlockBody } from '../../../core/chain/block_build.js';
import type { JsonValue } from '../../../core/json/value.js';
import { defaultAccountId } from '../../../core/keychain/identifier.js';
import { headerFromJson } from '../../../core/serde/block.js';
import { difficultyFromJson } from '../../../core/serde/pow.js';
import {
  kernelFromJson,
  outputFromJson,
  transactionFromJson,
} from '../../../core/serde/transaction.js';
import type { Block } from '../../../core/types/block.js';
import { WalletFailure } from '../../../core/wallet/errors.js';
import { AUTO, foreignOk, solve, submit } from '../../support/miner.js';

/** 2026-11-22T12:00:00Z: every timestamp the wallet writes in these tests. */
export const FIXED_NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
export const FIXED_TS = '2026-11-22T12:00:00Z';

/** A port nothing listens on: every node call fails at once. */
export const DEAD_NODE = 'http://127.0.0.1:9';

export function tempDir(prefix = 'mwwallet-svc-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export function makeEnv(top: string, nodeUrl = DEAD_NODE, secret: string | null = null): WalletEnv {
  return {
    chainType: 'automated',
    config: defaultWalletConfig('automated', top),
    lifecycle: new WalletLifecycle({ topDir: top }),
    node: new NodeClient({ url: nodeUrl, secret, timeoutMs: 10_000 }),
    status: new StatusQueue(),
    synced: false,
    now: () => new Date(FIXED_NOW),
    log: () => {},
    exclusive: exclusiveRunner(),
  };
}

/** Asserts that `p` rejects with a WalletFailure carrying exactly `err`. */
export async function rejectsWith(p: Promise<unknown>, err: JsonValue): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof WalletFailure, String(e));
    assert.deepEqual(e.err, err);
    return true;
  });
}

/** Every queued status message, oldest first (the queue hands them out newest first). */
export function drainStatus(env: WalletEnv): JsonValue[] {
  return env.status.take(env.status.size).reverse();
}

/**
 * A tx log entry as retrieve_txs prints it: an unconfirmed entry with nothing filled in, of the
 * default account, but for the fields in `over`.
 */
export function txEntryJson(over: { [k: string]: JsonValue }): JsonValue {
  return {
    confirmation_height: null,
    parent_key_id: defaultAccountId().toHex(),
    id: 0,
    tx_slate_id: null,
    tx_type: 'TxReceived',
    creation_ts: FIXED_TS,
    confirmation_ts: null,
    confirmed: false,
    num_inputs: 0,
    num_outputs: 0,
    amount_credited: '0',
    amount_debited: '0',
    fee: null,
    ttl_cutoff_height: null,
    messages: null,
    stored_tx: null,
    kernel_excess: null,
    kernel_lookup_min_height: null,
    payment_proof: null,
    public_addr: null,
    ...over,
  };
}

/**
 * A confirmed coinbase entry (FIXED_TS clock); `over` holds the fields a refresh and a scan fill
 * differently (heights, kernel excess, public_addr).
 */
export function coinbaseEntryJson(
  id: number,
  credited: bigint,
  over: { [k: string]: JsonValue },
): JsonValue {
  return txEntryJson({
    id,
    tx_type: 'ConfirmedCoinbase',
    confirmation_ts: FIXED_TS,
    confirmed: true,
    num_outputs: 1,
    amount_credited: credited.toString(),
    ...over,
  });
}

export interface MinedBlock {
  readonly block: Block;
  /** The wallet's CbData for it. */
  readonly cb: { [k: string]: JsonValue };
}

/**
 * One block whose coinbase the wallet builds through `build_coinbase` (the miner flow of
 * reference §5.2): template → build_coinbase → finalize_block_template → solve → submit.
 * `keyId` is passed on as the miner would (key reuse).
 */
export async function mineWithWallet(
  url: string,
  api: Pick<WalletApi, 'buildCoinbase'>,
  keyId: Uint8Array | null = null,
): Promise<MinedBlock> {
  const template = (await foreignOk(url, 'get_block_template', [])) as { [k: string]: JsonValue };
  const height = BigInt(template.height as number);
  const cb = (await api.buildCoinbase({ fees: 0n, height, keyId })) as { [k: string]: JsonValue };
  return mineCbData(url, template, cb);
}

/** Finalizes, solves and submits a block with the given CbData. */
export async function mineCbData(
  url: string,
  template: { [k: string]: JsonValue },
  cb: { [k: string]: JsonValue },
): Promise<MinedBlock> {
  const finalized = (await foreignOk(url, 'finalize_block_template', [
    { output: cb.output as JsonValue, kernel: cb.kernel as JsonValue },
  ])) as { [k: string]: JsonValue };
  const header = headerFromJson(finalized.header, 'header', AUTO);
  const txs = (finalized.transactions as JsonValue[]).map((t, i) =>
    transactionFromJson(t, `transactions[${i}]`),
  );
  const target = difficultyFromJson(template.block_difficulty, 'block_difficulty');
  const solved = solve(header, target.cuckaroo ?? 0n);
  const parts = {
    output: outputFromJson(cb.output, 'output'),
    kernel: kernelFromJson(cb.kernel, 'kernel'),
  };
  const block: Block = { header: solved, body: buildBlockBody(txs, [parts]).body };
  const reply = await submit(url, block);
  assert.deepEqual(reply.body.result, { Ok: null }, JSON.stringify(reply.body));
  return { block, cb };
}
