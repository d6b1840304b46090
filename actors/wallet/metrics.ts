// The wallet actor's figures for the wallet's `/metrics` (its thread's registry,
// metrics/thread.ts), read from the opened wallet's store at each scrape: outputs by status,
// transaction log entries by type, where the last scan stopped, and the node's sync state.
import { Gauge } from 'prom-client';
import {
  OUTPUT_STATUSES,
  type OutputStatus,
  TX_LOG_ENTRY_TYPES,
  type TxLogEntryType,
} from '../../core/wallet/types.js';
import { threadRegistry } from '../../metrics/thread.js';
import type { WalletEnv } from './env.js';

let env: WalletEnv | null = null;

/** The wallet the gauges read: this thread's. */
export function measureWallet(e: WalletEnv): void {
  env = e;
}

/** The opened wallet's store, or null (none open yet). */
function store() {
  return env?.lifecycle.isOpen === true ? env.lifecycle.store() : null;
}

new Gauge({
  name: 'mwwallet_open',
  help: 'Whether a wallet is open in the process (1) or not (0)',
  registers: [threadRegistry],
  collect() {
    this.set(store() === null ? 0 : 1);
  },
});

new Gauge({
  name: 'mwwallet_node_synced',
  help: 'Whether the node the wallet uses reported itself synced at the last poll',
  registers: [threadRegistry],
  collect() {
    this.set(env?.synced === true ? 1 : 0);
  },
});

new Gauge({
  name: 'mwwallet_outputs',
  help: 'Outputs in the wallet, every account, by status',
  labelNames: ['status'],
  registers: [threadRegistry],
  collect() {
    const s = store();
    if (s === null) return;
    const counts = new Map<OutputStatus, number>(OUTPUT_STATUSES.map((k) => [k, 0]));
    for (const o of s.outputs()) counts.set(o.status, (counts.get(o.status) ?? 0) + 1);
    for (const [status, n] of counts) this.set({ status }, n);
  },
});

new Gauge({
  name: 'mwwallet_txs',
  help: 'Transaction log entries, every account, by type',
  labelNames: ['type'],
  registers: [threadRegistry],
  collect() {
    const s = store();
    if (s === null) return;
    const counts = new Map<TxLogEntryType, number>(TX_LOG_ENTRY_TYPES.map((k) => [k, 0]));
    for (const t of s.txLogEntries()) counts.set(t.txType, (counts.get(t.txType) ?? 0) + 1);
    for (const [type, n] of counts) this.set({ type }, n);
  },
});

new Gauge({
  name: 'mwwallet_last_scanned_height',
  help: 'Height at which the last scan of the chain stopped (0 before the first)',
  registers: [threadRegistry],
  collect() {
    const s = store();
    if (s !== null) this.set(Number(s.lastScannedBlock().height));
  },
});
