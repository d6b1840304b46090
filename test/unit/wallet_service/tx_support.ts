// Shared set-up of the wallet transaction tests: a real node on the automated-testing chain, two
// real wallets (WalletLifecycle in temporary directories, Epic's doc-test recovery phrases) with
// their WalletEnv, and mining: blocks whose coinbase goes to a wallet (built with
// core/wallet/coinbase.ts from the wallet's own keychain, stored as build_coinbase stores it and
// then as the refresh of its block leaves it: Unspent at the block's height) or to the test
// miner.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InitTxArgs } from '../../../actors/wallet/api.js';
import { exclusiveRunner, StatusQueue, type WalletEnv } from '../../../actors/wallet/env.js';
import { foreignTxApi } from '../../../actors/wallet/foreign_tx.js';
import { WalletLifecycle } from '../../../actors/wallet/lifecycle.js';
import { lifecycleApi } from '../../../actors/wallet/lifecycle_api.js';
import { NodeClient } from '../../../actors/wallet/node_client.js';
import { txApi } from '../../../actors/wallet/owner_tx.js';
import { updateWalletState } from '../../../actors/wallet/updater.js';
import { defaultWalletConfig } from '../../../config/wallet_toml.js';
import { fromHex } from '../../../core/bytes.js';
import type { RewardParts } from '../../../core/chain/block_build.js';
import { totalFees } from '../../../core/crypto/kernel.js';
import type { JsonValue } from '../../../core/json/value.js';
import { Identifier } from '../../../core/keychain/identifier.js';
import {
  kernelToJson,
  outputToJson,
  transactionFromJson,
} from '../../../core/serde/transaction.js';
import { buildCoinbase } from '../../../core/wallet/coinbase.js';
import { computeWalletInfo } from '../../../core/wallet/info.js';
import type { OutputData, WalletInfo } from '../../../core/wallet/types.js';
import { type KillableNode, startKillable } from '../../support/killable_node.js';
import { foreignOk, mineBlock, submit } from '../../support/miner.js';
import { ownerSecret, removeHome } from '../../support/node_process.js';
import { WALLET1_MNEMONIC, WALLET2_MNEMONIC } from '../wallet/doc_wallets.js';
import { mineCbData } from './service_fixture.js';

export const PASSWORD = 'pass';

export interface TestWallet {
  readonly env: WalletEnv;
  /** null when opened without a mask (as the Foreign listener's wallet is). */
  readonly token: Uint8Array | null;
  readonly top: string;
}

export interface TestNet {
  readonly node: KillableNode;
  readonly a: TestWallet;
  readonly b: TestWallet;
  close(): Promise<void>;
}

function walletEnv(node: KillableNode, top: string): WalletEnv {
  const secret = (ownerSecret(node.home).split(/\r?\n/)[0] ?? '').trim();
  const config = {
    ...defaultWalletConfig('automated', top),
    checkNodeApiHttpAddr: node.url,
    nodeApiSecretPath: join(node.home, '.api_secret'),
  };
  return {
    chainType: 'automated',
    config,
    lifecycle: new WalletLifecycle({ topDir: top }),
    node: new NodeClient({ url: node.url, secret, timeoutMs: 20_000 }),
    status: new StatusQueue(),
    synced: true,
    now: () => new Date(),
    log: () => undefined,
    exclusive: exclusiveRunner(),
  };
}

async function openWallet(
  node: KillableNode,
  mnemonic: string,
  mask: boolean,
): Promise<TestWallet> {
  const top = mkdtempSync(join(tmpdir(), 'mw-wallet-tx-'));
  const env = walletEnv(node, top);
  env.lifecycle.createWallet({ mnemonic, mnemonicLength: 32, password: PASSWORD });
  // a masked open goes through the Owner API's open_wallet, whose token the Foreign API shares
  const token = mask
    ? hexBytes(String(await lifecycleApi(env).openWallet(null, PASSWORD)))
    : env.lifecycle.openWallet(PASSWORD, false);
  return { env, token, top };
}

/**
 * A node, wallet A (doc wallet 1, opened with a token through the Owner API's open_wallet) and
 * wallet B (doc wallet 2, opened without a mask, as `mwwallet listen` opens it).
 */
export async function startTestNet(): Promise<TestNet> {
  const node = await startKillable();
  const a = await openWallet(node, WALLET1_MNEMONIC, true);
  const b = await openWallet(node, WALLET2_MNEMONIC, false);
  return {
    node,
    a,
    b,
    async close() {
      for (const w of [a, b]) {
        w.env.lifecycle.closeWallet();
        rmSync(w.top, { recursive: true, force: true });
      }
      await node.stop();
      removeHome(node.home);
    },
  };
}

/** One block on the node with the given coinbase (the template's fees passed to `build`). */
async function mineWithCoinbase(
  url: string,
  build: (height: bigint, fees: bigint) => RewardParts,
): Promise<bigint> {
  const template = (await foreignOk(url, 'get_block_template', [])) as { [k: string]: JsonValue };
  const height = BigInt(template.height as number);
  const fees = (template.transactions as JsonValue[])
    .map((t, i) => transactionFromJson(t, `transactions[${i}]`))
    .reduce((sum, tx) => sum + totalFees(tx.body.kernels), 0n);
  const coinbase = build(height, fees);
  const cb = { output: outputToJson(coinbase.output), kernel: kernelToJson(coinbase.kernel) };
  await mineCbData(url, template, cb);
  return height;
}

/**
 * A block paying its coinbase to `w`: built as Foreign build_coinbase builds it (next child of
 * the active account, the index persisted), and recorded as the refresh of the mined block
 * leaves it (Unspent at the block's height). Returns the output record.
 */
export async function mineToWallet(url: string, w: TestWallet): Promise<OutputData> {
  const store = w.env.lifecycle.store();
  const keychain = w.env.lifecycle.keychain(w.token);
  const parent = store.parentKeyId;
  let record: OutputData | null = null;
  await mineWithCoinbase(url, (height, fees) => {
    const built = buildCoinbase(
      {
        chainType: 'automated',
        keychain,
        parentKeyId: parent.toHex(),
        nextChild: store.currentChildIndex(parent),
        hasOutput: () => false,
      },
      { fees, height, keyId: null },
    );
    store.saveChildIndex(parent, built.nextChild);
    const o = built.output;
    record = {
      rootKeyId: parent,
      keyId: Identifier.fromHex(o.keyId),
      nChild: o.nChild,
      commit: o.commit,
      mmrIndex: null,
      value: o.value,
      status: 'Unspent',
      height,
      lockHeight: o.lockHeight,
      isCoinbase: true,
      txLogEntry: null,
    };
    store.saveOutput(record);
    return built.parts;
  });
  assert.ok(record !== null);
  return record;
}

/**
 * startTestNet, then `coinbases` blocks paying wallet A and 3 more so they mature (coinbase
 * maturity is 3 blocks on this chain). Returns the net and A's coinbase records, oldest first.
 */
export async function startFundedNet(
  coinbases: number,
): Promise<{ net: TestNet; mined: OutputData[] }> {
  const net = await startTestNet();
  const mined: OutputData[] = [];
  for (let i = 0; i < coinbases; i++) mined.push(await mineToWallet(net.node.url, net.a));
  await mineBlocks(net.node.url, 3);
  return { net, mined };
}

/** `n` blocks paying the test miner (fees of pooled transactions included). */
export async function mineBlocks(url: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const block = await mineBlock(url);
    assert.deepEqual((await submit(url, block)).body.result, { Ok: null });
  }
}

/** WalletInfo of the active account at the stored last confirmed height. */
export function walletInfo(w: TestWallet, minimumConfirmations = 1n): WalletInfo {
  const store = w.env.lifecycle.store();
  const parent = store.parentKeyId;
  const outputs = store.outputs().filter((o) => o.rootKeyId.equals(parent));
  return computeWalletInfo(outputs, store.lastConfirmedHeight(parent), minimumConfirmations);
}

/** A snapshot of everything the store holds, to prove a failed call changed nothing. */
export function storeSnapshot(w: TestWallet): string {
  const store = w.env.lifecycle.store();
  const parent = store.parentKeyId;
  const rows = {
    outputs: store.outputs(),
    history: store.outputHistory(),
    txs: store.txLogEntries(),
    child: store.currentChildIndex(parent),
    lastConfirmed: store.lastConfirmedHeight(parent),
    stored: store
      .txLogEntries()
      .map((t) => (t.storedTx === null ? null : store.storedTx(t.storedTx))),
  };
  return JSON.stringify(rows, (_k, v) =>
    typeof v === 'bigint' ? `${v}n` : v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v,
  );
}

/** InitTxArgs as a client would send them: no send_args, proof optional. */
export function sendArgs(amount: bigint, over: Partial<InitTxArgs> = {}): InitTxArgs {
  return {
    srcAcctName: null,
    amount,
    minimumConfirmations: 1n,
    maxOutputs: 500,
    numChangeOutputs: 1,
    selectionStrategyIsUseAll: false,
    message: null,
    targetSlateVersion: null,
    ttlBlocks: null,
    paymentProofRecipientAddress: null,
    estimateOnly: null,
    sendArgs: null,
    ...over,
  };
}

export function hexBytes(hex: string): Uint8Array {
  const b = fromHex(hex);
  assert.ok(b !== null);
  return b;
}

/** A refresh of `w` from its node (not a full scan), as the Owner API's refresh runs it. */
export function refreshWallet(w: TestWallet): Promise<boolean> {
  return updateWalletState(w.env, w.env.lifecycle.keychain(w.token), false);
}

/**
 * A complete send from `from` to `to` (init, receive, lock, finalize, post), mined into one
 * block and refreshed on both sides. Returns the final slate's JSON.
 */
export async function sendAndConfirm(
  net: TestNet,
  from: TestWallet,
  to: TestWallet,
  args: InitTxArgs,
): Promise<JsonValue> {
  const sent = await txApi(from.env).initSendTx(from.token, args);
  const received = await foreignTxApi(to.env).receiveTx(sent, null, null, null);
  await txApi(from.env).txLockOutputs(from.token, received, 0, null);
  const final = await txApi(from.env).finalizeTx(from.token, received);
  await txApi(from.env).postTx(from.token, (final as { tx: JsonValue }).tx, false);
  await mineBlocks(net.node.url, 1);
  for (const w of [from, to]) assert.equal(await refreshWallet(w), true);
  return final;
}
