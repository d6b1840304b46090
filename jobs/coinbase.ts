// Burnt coinbases made in a pool worker: a range proof takes about a tenth of a second, which on
// the stratum thread would hold up every miner's lines and the next job. An item is the chain
// type's index, the height and the fees (u64 big-endian each); its result is the output's
// protocol-2 bytes, then the kernel's.
import { burnRewardOutput } from '../core/chain/coinbase.js';
import { CHAIN_PARAMS, CHAIN_TYPES, type ChainType } from '../core/chain_type.js';
import { encode } from '../core/ser/codec.js';
import { PROTOCOL_VERSION_2 } from '../core/ser/params.js';
import { writeKernel, writeOutput } from '../core/ser/transaction.js';
import type { KindTable } from '../runtime/job.js';
import type { WorkPool } from '../runtime/workpool.js';
import { installSecpBackend } from './secp_addon.js';

export const BURN_COINBASE_JOB = 'burnCoinbase';

/** A coinbase output and kernel in their protocol-2 wire form. */
export interface CoinbaseBytes {
  readonly output: Uint8Array;
  readonly kernel: Uint8Array;
}

/** Epic's `burn_reward` coinbase for `height`, paying `fees` beyond the reward, as bytes. */
export function burnCoinbaseBytes(type: ChainType, height: bigint, fees: bigint): CoinbaseBytes {
  const params = CHAIN_PARAMS[type];
  const parts = burnRewardOutput(type, fees, height);
  return {
    output: encode(writeOutput, parts.output, PROTOCOL_VERSION_2, params),
    kernel: encode(writeKernel, parts.kernel, PROTOCOL_VERSION_2, params),
  };
}

const ITEM_SIZE = 17;

function encodeItem(type: ChainType, height: bigint, fees: bigint): Uint8Array {
  const item = new Uint8Array(ITEM_SIZE);
  const view = new DataView(item.buffer);
  item[0] = CHAIN_TYPES.indexOf(type);
  view.setBigUint64(1, height);
  view.setBigUint64(9, fees);
  return item;
}

/** Output length (u32 big-endian), output, kernel. */
function encodeResult(cb: CoinbaseBytes): Uint8Array {
  const out = new Uint8Array(4 + cb.output.length + cb.kernel.length);
  new DataView(out.buffer).setUint32(0, cb.output.length);
  out.set(cb.output, 4);
  out.set(cb.kernel, 4 + cb.output.length);
  return out;
}

function decodeResult(bytes: Uint8Array): CoinbaseBytes {
  const n = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0);
  return { output: bytes.slice(4, 4 + n), kernel: bytes.slice(4 + n) };
}

let backendTried = false;

function burn(item: Uint8Array): Uint8Array {
  if (!backendTried) {
    backendTried = true;
    installSecpBackend();
  }
  const type = CHAIN_TYPES[item[0] as number];
  if (item.length !== ITEM_SIZE || type === undefined) throw new RangeError('bad coinbase item');
  const view = new DataView(item.buffer, item.byteOffset, item.byteLength);
  // The fees given already include any foundation levy.
  return encodeResult(burnCoinbaseBytes(type, view.getBigUint64(1), view.getBigUint64(9)));
}

/** The kinds pool workers run (registered in runtime/pool_kinds.ts). */
export const coinbaseKinds: KindTable = {
  [BURN_COINBASE_JOB]: (items) => items.map((item) => ({ ok: true, value: burn(item) })),
};

/** A burnt coinbase for `height` paying `fees` beyond the reward, made in `pool`. */
export async function burnCoinbaseIn(
  pool: WorkPool,
  type: ChainType,
  height: bigint,
  fees: bigint,
): Promise<CoinbaseBytes> {
  const [r] = await pool.runBatch(BURN_COINBASE_JOB, [encodeItem(type, height, fees)]);
  if (r === undefined || !r.ok || !(r.value instanceof Uint8Array))
    throw new Error(`burnt coinbase failed: ${r !== undefined && !r.ok ? r.code : 'no result'}`);
  return decodeResult(r.value);
}
