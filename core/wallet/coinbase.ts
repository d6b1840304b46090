// The wallet side of Foreign `build_coinbase` and `build_foundation` (epic-wallet
// libwallet/src/internal/updater.rs `receive_coinbase`, `receive_foundation`) as pure functions:
// the caller supplies what the store knows (active account, its next child index, whether a key
// id already names a stored output) and persists what comes back (the output record, the new
// child index). Output and kernel are built by core/chain/coinbase.ts, as the node's reward.rs.

import { toHex } from '../bytes.js';
import type { RewardParts } from '../chain/block_build.js';
import { coinbaseOutput, foundationOutput } from '../chain/coinbase.js';
import { type ChainType, chainParams } from '../chain_type.js';
import { foundationPayout, reward } from '../consensus/rewards.js';
import type { JsonValue } from '../json/value.js';
import { childKeyId, Identifier } from '../keychain/identifier.js';
import type { ExtKeychain } from '../keychain/keychain.js';
import { asObject, asU64, field, JsonFormError, sub } from '../serde/fields.js';
import { outputToJson, signatureToJson } from '../serde/transaction.js';

/** OutputStatus values an output record can have in the store. */
export type WalletOutputStatus = 'Unconfirmed' | 'Unspent' | 'Locked' | 'Spent';

/**
 * The fields of Epic's OutputData this module and refresh/scan need. Ids and the commitment
 * are lowercase hex as in Epic's JSON; the lead maps it onto the store's record.
 */
export interface WalletOutputView {
  /** The account (parent) key id, 34 hex chars. */
  readonly rootKeyId: string;
  readonly keyId: string;
  /** Last path element of keyId. */
  readonly nChild: number;
  /** 66 hex chars; null when not cached (Epic then recomputes it). */
  readonly commit: string | null;
  readonly mmrIndex: bigint | null;
  readonly value: bigint;
  readonly status: WalletOutputStatus;
  /** Block height once confirmed; before that the height it was built or received at. */
  readonly height: bigint;
  readonly lockHeight: bigint;
  readonly isCoinbase: boolean;
  readonly txLogEntry: number | null;
}

/** Epic's BlockFees. */
export interface BlockFees {
  readonly fees: bigint;
  readonly height: bigint;
  /** Hex key id of the last coinbase the miner did not get mined, or null. */
  readonly keyId: string | null;
}

export interface CoinbaseContext {
  readonly chainType: ChainType;
  readonly keychain: ExtKeychain;
  /** Active account, hex (default `0200000000000000000000000000000000`). */
  readonly parentKeyId: string;
  /** The account's stored next child index (`d` counter; 0 when absent). */
  readonly nextChild: number;
  /**
   * True when the store holds an output under this key id without an mmr index (Epic's
   * `retrieve_existing_key(key_id, None)`); only then is a miner-supplied key id reused.
   */
  readonly hasOutput: (keyId: string) => boolean;
  /** Epic's test_mode: fixed signature nonce (doc tests, reproducible vectors). */
  readonly testMode?: boolean;
}

export interface CoinbaseBuild {
  /** CoinbaseV3 JSON `{output, kernel, key_id}`, the `Ok` payload. */
  readonly json: JsonValue;
  readonly parts: RewardParts;
  readonly keyId: string;
  /** The record to save (replaces a stored output with the same key id and no mmr index). */
  readonly output: WalletOutputView;
  /** The account's child index to persist afterwards (unchanged when the key was reused). */
  readonly nextChild: number;
}

export class BlockFeesError extends Error {
  override readonly name = 'BlockFeesError';
}

/** What build_coinbase pays: the miner's share of `height` plus `fees` (consensus `reward`). */
export function coinbaseValue(type: ChainType, fees: bigint, height: bigint): bigint {
  return reward(type, fees, height);
}

/** The key a coinbase goes to, and the child counter after choosing it (`next_child`). */
export function chooseCoinbaseKey(
  ctx: Pick<CoinbaseContext, 'parentKeyId' | 'nextChild' | 'hasOutput'>,
  requested: string | null,
): { keyId: string; nextChild: number } {
  if (requested !== null && ctx.hasOutput(requested)) {
    return { keyId: requested, nextChild: ctx.nextChild };
  }
  const id = childKeyId(Identifier.fromHex(ctx.parentKeyId), ctx.nextChild);
  return { keyId: id.toHex(), nextChild: ctx.nextChild + 1 };
}

/** CoinbaseV3: the kernel carries fee and lock_height as strings next to its features. */
export function coinbaseV3Json(parts: RewardParts, keyId: string | null): JsonValue {
  return {
    output: outputToJson(parts.output),
    kernel: {
      features: 'Coinbase',
      fee: '0',
      lock_height: '0',
      excess: toHex(parts.kernel.excess),
      excess_sig: signatureToJson(parts.kernel.excessSig),
    },
    key_id: keyId,
  };
}

function finish(
  ctx: CoinbaseContext,
  fees: BlockFees,
  value: bigint,
  build: (id: Identifier) => RewardParts,
): CoinbaseBuild {
  const { keyId, nextChild } = chooseCoinbaseKey(ctx, fees.keyId);
  const id = Identifier.fromHex(keyId);
  const parts = build(id);
  const output: WalletOutputView = {
    rootKeyId: ctx.parentKeyId,
    keyId,
    nChild: id.toPath().lastPathIndex(),
    // the output's commitment is what Epic's calc_commit_for_cache computes
    commit: toHex(parts.output.commit),
    mmrIndex: null,
    value,
    status: 'Unconfirmed',
    height: fees.height,
    lockHeight: fees.height + chainParams(ctx.chainType).coinbaseMaturity,
    isCoinbase: true,
    txLogEntry: null,
  };
  return { json: coinbaseV3Json(parts, keyId), parts, keyId, output, nextChild };
}

/** `build_coinbase`: value = reward(fees, height), always the current proof builder. */
export function buildCoinbase(ctx: CoinbaseContext, fees: BlockFees): CoinbaseBuild {
  const value = coinbaseValue(ctx.chainType, fees.fees, fees.height);
  const opts = { testMode: ctx.testMode === true };
  return finish(ctx, fees, value, (id) => coinbaseOutput(ctx.keychain, id, value, opts));
}

/**
 * `build_foundation`: value = the levy of the last F blocks at a foundation height, builder by
 * header version. Epic asserts (panics) elsewhere; here that is a BlockFeesError. `fees` is
 * ignored, as in Epic.
 */
export function buildFoundation(ctx: CoinbaseContext, fees: BlockFees): CoinbaseBuild {
  const value = foundationPayout(ctx.chainType, fees.height);
  if (value === 0n) {
    throw new BlockFeesError(`height ${fees.height} is not a foundation height`);
  }
  const opts = { testMode: ctx.testMode === true };
  return finish(ctx, fees, value, (id) =>
    foundationOutput(ctx.keychain, id, ctx.chainType, fees.height, opts),
  );
}

/** u64 as serde's `string_or_u64`: a JSON integer or a decimal string. */
function stringOrU64(v: unknown, path: string): bigint {
  if (typeof v === 'string') {
    if (!/^[0-9]{1,20}$/.test(v)) throw new JsonFormError(path, `invalid u64 string "${v}"`);
    return asU64(BigInt(v), path);
  }
  return asU64(v, path);
}

/**
 * BlockFees from JSON (`{fees, height, key_id}`; `key_id` may be absent or null). Epic parses
 * identifiers leniently (pad/truncate to 17 bytes); a key id that is not hex is refused here.
 */
export function blockFeesFromJson(v: unknown, path = 'block_fees'): BlockFees {
  const o = asObject(v, path);
  const raw = o.key_id;
  let keyId: string | null = null;
  if (raw !== undefined && raw !== null) {
    if (typeof raw !== 'string' || !/^([0-9a-fA-F]{2})*$/.test(raw)) {
      throw new JsonFormError(sub(path, 'key_id'), 'invalid identifier hex');
    }
    keyId = Identifier.fromHex(raw).toHex();
  }
  return {
    fees: stringOrU64(field(o, 'fees', path), sub(path, 'fees')),
    height: stringOrU64(field(o, 'height', path), sub(path, 'height')),
    keyId,
  };
}
