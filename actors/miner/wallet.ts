// The test miner's wallet client: Epic's node asks a wallet's foreign API for each coinbase
// (servers/src/mining/mine_block.rs `build_coinbase`): JSON-RPC `build_coinbase` on
// `<url>/v2/foreign` with the named parameter `block_fees` = { fees, height, key_id } (u64s as
// decimal strings, key_id as hex or null); the `Ok` result is a CbData { output, kernel,
// key_id }. Any failure is a WalletCommError; the loop retries after a pause, as Epic does.
import { fromHex, toHex } from '../../core/bytes.js';
import { parseJson } from '../../core/json/parse.js';
import { coinbaseDataFromJson } from '../../core/serde/mining.js';
import type { Output, TxKernel } from '../../core/types/transaction.js';

/** Epic's `BlockFees`. */
export interface BlockFees {
  readonly fees: bigint;
  readonly height: bigint;
  /** The derivation the wallet used for the last coinbase that was not mined; null for a new one. */
  readonly keyId: Uint8Array | null;
}

/** Epic's `CbData`. */
export interface WalletCoinbase {
  readonly output: Output;
  readonly kernel: TxKernel;
  readonly keyId: Uint8Array | null;
}

export class WalletCommError extends Error {
  override readonly name = 'WalletCommError';
  readonly code = 'WalletComm';
}

/** Epic's client timeout is 20 s for the whole request. */
export const WALLET_TIMEOUT_MS = 20_000;
const KEY_ID_BYTES = 17;

export function blockFeesJson(fees: BlockFees): string {
  const block_fees = {
    fees: fees.fees.toString(),
    height: fees.height.toString(),
    key_id: fees.keyId === null ? null : toHex(fees.keyId),
  };
  return JSON.stringify({
    jsonrpc: '2.0',
    method: 'build_coinbase',
    id: 1,
    params: { block_fees },
  });
}

function keyIdOf(v: unknown): Uint8Array | null {
  if (v === null || v === undefined) return null;
  const bytes = typeof v === 'string' ? fromHex(v) : null;
  if (bytes === null || bytes.length !== KEY_ID_BYTES)
    throw new WalletCommError(`key_id is not ${KEY_ID_BYTES} bytes of hex: ${JSON.stringify(v)}`);
  return bytes;
}

/** Reads a build_coinbase reply; throws WalletCommError with Epic's wording where it has one. */
export function coinbaseFromReply(text: string, dest: string): WalletCoinbase {
  let reply: { error?: unknown; result?: { Ok?: unknown; Err?: unknown } };
  try {
    reply = parseJson(text) as typeof reply;
  } catch (e) {
    throw new WalletCommError(`Failed to get coinbase from ${dest}: ${(e as Error).message}`);
  }
  if (typeof reply !== 'object' || reply === null)
    throw new WalletCommError(`Failed to get coinbase from ${dest}: not a JSON-RPC reply`);
  if (reply.error !== undefined && reply.error !== null) {
    const { code, message } = reply.error as { code?: unknown; message?: unknown };
    throw new WalletCommError(
      `Failed to get coinbase from ${dest}: Error: ${String(code)}, Message: ${String(message)}`,
    );
  }
  const ok = reply.result?.Ok;
  try {
    const data = coinbaseDataFromJson(ok, 'result.Ok');
    return { ...data, keyId: keyIdOf((ok as { key_id?: unknown }).key_id) };
  } catch (e) {
    if (e instanceof WalletCommError) throw e;
    throw new WalletCommError(`Couldn't deserialize CbData: ${(e as Error).message}`);
  }
}

/** POSTs build_coinbase to `<dest>/v2/foreign` and reads the CbData. */
export async function buildCoinbase(
  dest: string,
  fees: BlockFees,
  timeoutMs = WALLET_TIMEOUT_MS,
): Promise<WalletCoinbase> {
  const url = `${dest.replace(/\/+$/, '')}/v2/foreign`;
  let text: string;
  try {
    const r = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: blockFeesJson(fees),
      signal: AbortSignal.timeout(timeoutMs),
    });
    text = await r.text();
    if (!r.ok) throw new Error(`HTTP ${r.status}`);
  } catch (e) {
    throw new WalletCommError(
      `Failed to get coinbase from ${dest}. Is the wallet listening? ${(e as Error).message}`,
    );
  }
  return coinbaseFromReply(text, dest);
}
