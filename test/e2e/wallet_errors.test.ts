// Issue 10 acceptance: bad input never corrupts the wallet. Two real `mwwallet owner_api
// --run_foreign` processes (A paid by a usernet node's test miner, B receiving through its
// /v2/foreign) exchange slates that were tampered with on the way: a wrong amount, B's nonce
// replaced by A's, a flipped partial signature; B over-spends; A is SIGKILLed while finalizing.
// Each time A answers Epic's error, its locked outputs, summary and log entry are what they
// were before, and a retry or cancel_tx completes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { NodeProcess } from '../support/node_process.js';
import { removeHome } from '../support/node_process.js';
import {
  initWallet,
  minedBlocks,
  sleep,
  startUsernetNode,
  tempHome,
  waitForeignReady,
  waitForTxBlock,
  waitUntil,
  walletFor,
} from '../support/wallet_e2e.js';
import {
  freePort,
  startWalletListener,
  type TestWallet,
  type WalletListener,
} from '../support/wallet_process.js';
import { type Json, rpcErr, rpcOk, sendArgs } from '../support/wallet_rpc.js';
import { postJson } from '../support/wallet_v3_client.js';

const EPIC = 100_000_000n;
type Obj = { [key: string]: Json };
const obj = (v: Json | undefined): Obj => v as Obj;

describe('mwwallet refuses bad slates without corrupting its state', { timeout: 200_000 }, () => {
  let node: NodeProcess;
  let a: TestWallet;
  let b: TestWallet;
  let la: WalletListener;
  let lb: WalletListener;
  const homes: string[] = [];

  const owner = (l: WalletListener, method: string, params: Json) =>
    rpcOk(l.url, 'owner', method, params);
  /**
   * The summary's amounts. The height it was read at is left out: any refresh in between (and
   * init_send_tx refreshes first) moves it with the miner, while the amounts must not move.
   */
  const summary = async (l: WalletListener, refresh: boolean): Promise<Obj> => {
    const info = obj(((await owner(l, 'retrieve_summary_info', [refresh, 1])) as Json[])[1]);
    const { last_confirmed_height: _height, ...amounts } = info;
    return amounts;
  };
  /** What a failed step must leave as it was: locked outputs, summary, the slate's entry. */
  const state = async (slateId: string) => {
    const outputs = obj(await owner(la, 'retrieve_outputs', [false, false, null, null, null, null]))
      .outputs as Obj[];
    const txs = obj(await owner(la, 'retrieve_txs', [false, null, slateId, null, null, null]))
      .txs as Obj[];
    const ids = txs.map((t) => t.id);
    return {
      // The inputs the slate's entry locked.
      locked: outputs
        .filter(
          (o) => obj(o.output).status === 'Locked' && ids.includes(obj(o.output).tx_log_entry),
        )
        .map((o) => String(o.commit))
        .sort(),
      summary: await summary(la, false),
      entries: txs.map((t) => [t.tx_type, t.confirmed, t.stored_tx]),
    };
  };
  /**
   * A's stored transaction of the slate when it is the finalized one, else null: as Epic, the
   * lock stores the unfinalized tx (kernel excess all zeros) and finalize replaces it.
   */
  const finalizedTx = async (slateId: string): Promise<Json> => {
    const txs = obj(await owner(la, 'retrieve_txs', [false, null, slateId, null, null, null]))
      .txs as Obj[];
    const tx = obj(await owner(la, 'get_stored_tx', [txs[0] as Json]));
    const kernel = (obj(tx.body).kernels as Obj[])[0] as Obj;
    return /^0+$/.test(String(kernel.excess)) ? null : tx;
  };
  /** A's slate for `amount`, its inputs locked, received by B. */
  const exchange = async (amount: bigint, tamper: (s: Obj) => Obj = (s) => s) => {
    const slate = obj(await owner(la, 'init_send_tx', [sendArgs(amount)]));
    assert.equal(await owner(la, 'tx_lock_outputs', [slate, 0, null]), null);
    const response = obj(
      await rpcOk(lb.url, 'foreign', 'receive_tx', [tamper(slate), null, null, null]),
    );
    return { id: String(slate.id), response, before: await state(String(slate.id)) };
  };
  const participant = (s: Obj, id: string): Obj =>
    (s.participant_data as Obj[]).find((p) => p.id === id) as Obj;
  const withParticipant1 = (s: Obj, change: (p: Obj) => Obj): Obj => ({
    ...s,
    participant_data: (s.participant_data as Obj[]).map((p) => (p.id === '1' ? change(p) : p)),
  });
  const cancelBoth = async (id: string) => {
    assert.equal(await owner(la, 'cancel_tx', [null, id]), null);
    assert.equal(await owner(lb, 'cancel_tx', [null, id]), null);
    const after = await state(id);
    assert.deepEqual(after.locked, []);
    assert.deepEqual(after.entries, [['TxSentCancelled', false, `${id}.epictx`]]);
  };
  const startA = async () => {
    la = await startWalletListener(a, 'owner_api', ['--run_foreign']);
  };

  before(async () => {
    const portA = await freePort();
    node = await startUsernetNode(portA);
    homes.push(node.home);
    a = walletFor(node, tempHome(), { owner: portA });
    b = walletFor(node, tempHome());
    homes.push(a.home, b.home);
    await Promise.all([initWallet(a), initWallet(b)]);
    await startA();
    lb = await startWalletListener(b, 'owner_api', ['--run_foreign']);
    await waitForeignReady(lb.url);
    await waitUntil(
      async () =>
        BigInt(String((await summary(la, true)).amount_currently_spendable)) >= 20n * EPIC,
      120_000,
      () => node.stderr().slice(-2000),
    );
  });

  after(async () => {
    await la?.stop();
    await lb?.stop();
    await node?.stop();
    for (const h of homes) removeHome(h);
  });

  it('a slate whose amount was changed on the way cannot be finalized; cancel_tx frees it', async () => {
    const x = await exchange(EPIC, (s) => ({ ...s, amount: String(EPIC + EPIC / 2n) }));
    // As Epic's lock_tx_context: TxSentCreated, the stored tx named (written at finalize).
    assert.equal(x.before.locked.length, 1);
    assert.deepEqual(x.before.entries, [['TxSentCreated', false, `${x.id}.epictx`]]);
    assert.equal(await finalizedTx(x.id), null);
    assert.deepEqual(await rpcErr(la.url, 'owner', 'finalize_tx', [x.response]), {
      Transaction: 'IncorrectSignature',
    });
    assert.deepEqual(await state(x.id), x.before);
    await cancelBoth(x.id);
  });

  it('a tampered partial signature is refused; cancel_tx frees the inputs', async () => {
    const x = await exchange(EPIC);
    const flipped = withParticipant1(x.response, (p) => {
      const sig = Buffer.from(String(p.part_sig), 'hex');
      sig[40] = (sig[40] as number) ^ 0x10;
      return { ...p, part_sig: sig.toString('hex') };
    });
    assert.deepEqual(await rpcErr(la.url, 'owner', 'finalize_tx', [flipped]), {
      LibTX: { Signature: 'Signature validation error' },
    });
    assert.deepEqual(await state(x.id), x.before);
    await cancelBoth(x.id);
  });

  it("B publishing A's nonce is refused; the genuine response then completes and is mined", async () => {
    const x = await exchange(EPIC);
    const copied = withParticipant1(x.response, (p) => ({
      ...p,
      public_nonce: participant(x.response, '0').public_nonce as Json,
    }));
    assert.deepEqual(await rpcErr(la.url, 'owner', 'finalize_tx', [copied]), {
      Signature: 'Participants use the same public nonce',
    });
    assert.deepEqual(await state(x.id), x.before);
    const final = obj(await owner(la, 'finalize_tx', [x.response]));
    const seen = minedBlocks(node).length;
    assert.equal(await owner(la, 'post_tx', [final.tx as Json, false]), null);
    await waitForTxBlock(node, seen);
    await waitUntil(
      async () => (await summary(lb, true)).amount_currently_spendable === String(EPIC),
      30_000,
      () => 'B never saw its output confirmed',
    );
  });

  it("an over-spend is NotEnoughFunds with Epic's shape; B's wallet is unchanged", async () => {
    const before = await summary(lb, true);
    assert.deepEqual(await rpcErr(lb.url, 'owner', 'init_send_tx', [sendArgs(2n * EPIC)]), {
      NotEnoughFunds: {
        available: Number(EPIC),
        available_disp: '1.00000000',
        // One input, one output, one kernel: (4 + 1 − 1) × 0.001.
        needed: Number(2n * EPIC + 400_000n),
        needed_disp: '2.00400000',
      },
    });
    assert.deepEqual(await summary(lb, false), before);
  });

  for (const [delayMs, ending] of [
    [5, 'cancel'],
    [40, 'complete'],
  ] as const) {
    it(`SIGKILL ${delayMs} ms into finalize_tx: after restart the state is whole; ${ending}`, async () => {
      const x = await exchange(EPIC);
      const pending = postJson(`${la.url}/v2/owner`, {
        jsonrpc: '2.0',
        id: 1,
        method: 'finalize_tx',
        params: [x.response],
      }).catch((e: unknown) => e);
      await sleep(delayMs);
      await la.kill();
      await pending;
      await startA();
      const after = await state(x.id);
      // Finalize changes no output; it stores the transaction on the entry, or nothing.
      assert.deepEqual(after.locked, x.before.locked);
      assert.deepEqual(after.summary, x.before.summary);
      assert.deepEqual(after.entries, x.before.entries);
      // Killed before the commit: the lock's tx is stored; after it: the finalized one.
      const stored = await finalizedTx(x.id);
      process.stderr.write(`killed ${delayMs} ms into finalize_tx: finalized ${stored !== null}\n`);
      if (ending === 'cancel') {
        await cancelBoth(x.id);
        return;
      }
      const tx = stored ?? obj(await owner(la, 'finalize_tx', [x.response])).tx;
      const seen = minedBlocks(node).length;
      assert.equal(await owner(la, 'post_tx', [tx as Json, false]), null);
      await waitForTxBlock(node, seen);
      await waitUntil(
        async () => (await summary(lb, true)).amount_currently_spendable === String(2n * EPIC),
        30_000,
        () => 'B never saw the second payment confirmed',
      );
      await summary(la, true);
      const done = await state(x.id);
      assert.deepEqual(done.locked, []);
      assert.deepEqual(
        done.entries.map((e) => e.slice(0, 2)),
        [['TxSent', true]],
      );
    });
  }
});
