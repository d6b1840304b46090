// Job kinds for the worker-pool tests only.
import { createHash } from 'node:crypto';
import type { KindTable } from '../../../runtime/job.js';

export const kinds: KindTable = {
  echo: (items) => items.map((value) => ({ ok: true, value })),
  sha256: (items) =>
    items.map((item) => ({ ok: true, value: createHash('sha256').update(item).digest() })),
  // Each item learns how many items its job held, so tests can see the chunking.
  count: (items) => items.map(() => ({ ok: true, value: items.length })),
  crash: () => process.exit(3),
  throw: (items) => {
    const code = new TextDecoder().decode(items[0]);
    throw code === '' ? new Error('no code') : Object.assign(new Error('boom'), { code });
  },
  // Blocks the worker for the first byte × 10 ms, to fill the queue.
  sleep: (items) => {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, (items[0]?.[0] ?? 0) * 10);
    return items.map(() => ({ ok: true, value: true }));
  },
  short: () => [],
};
