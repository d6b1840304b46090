// Worker thread of wallet_cache.ts: builds the parts of the planned blocks it is sent, posting
// one JSON line per block as soon as it is done (so an interrupted build keeps what it made).
import { parentPort, workerData } from 'node:worker_threads';
import { stringifyJson } from '../../core/json/stringify.js';
import { buildParts, partsToJson } from './wallet_parts.js';
import { type ChainSize, planChain } from './wallet_plan.js';

interface Job {
  readonly size: ChainSize;
  readonly heights: readonly number[];
}

const job = workerData as Job;
const plan = planChain(job.size);
for (const h of job.heights) {
  const block = plan.blocks[h - 1];
  if (block === undefined) throw new Error(`no planned block ${h}`);
  parentPort?.postMessage(stringifyJson(partsToJson(buildParts(block))));
}
