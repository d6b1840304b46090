// The private per-slate context at rest. Epic never stores the secret key and nonce in the
// clear: each is XORed with BLAKE2b-256(root_key ‖ slate_id ‖ "blind" / "nonce"), where
// root_key is the Regular-switch key of the root id at amount 0 (`lmdb.rs`
// `private_ctx_xor_keys`). XOR is its own inverse, so one function masks and unmasks. The key
// and input/output lists are stored as JSON in Epic's tuple shape `[key_id, mmr_index, amount]`.
import { concatBytes } from '../bytes.js';
import { blake2b256 } from '../hash/blake2b.js';
import type { JsonValue } from '../json/value.js';
import { rootKeyId } from '../keychain/identifier.js';
import type { ExtKeychain } from '../keychain/keychain.js';
import { SwitchCommitmentType } from '../keychain/switch_type.js';
import { asArray, asU64, JsonFormError, sub } from '../serde/fields.js';
import { asIdentifier, asOptU64 } from './json_fields.js';
import type { ContextKey, PrivateContext } from './types.js';
import { u64Number } from './types_json.js';

const BLIND = new TextEncoder().encode('blind');
const NONCE = new TextEncoder().encode('nonce');

/** The root key both the context masks and the open-wallet checksum are built from. */
export function walletRootKey(keychain: ExtKeychain): Uint8Array {
  return keychain.deriveKey(0n, rootKeyId(), SwitchCommitmentType.Regular);
}

/** (blind mask, nonce mask) for one slate id (its 16 UUID bytes). */
export function contextXorKeys(
  keychain: ExtKeychain,
  slateId: Uint8Array,
): { blind: Uint8Array; nonce: Uint8Array } {
  const root = walletRootKey(keychain);
  return {
    blind: blake2b256(concatBytes(root, slateId, BLIND)),
    nonce: blake2b256(concatBytes(root, slateId, NONCE)),
  };
}

function xor(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length !== 32) throw new RangeError('context secrets are 32 bytes');
  return a.map((x, i) => x ^ (b[i] as number));
}

/** Masks a clear context for storage, or unmasks a stored one (the same operation). */
export function xorContextSecrets(
  ctx: PrivateContext,
  keychain: ExtKeychain,
  slateId: Uint8Array,
): PrivateContext {
  const k = contextXorKeys(keychain, slateId);
  return { ...ctx, secKey: xor(ctx.secKey, k.blind), secNonce: xor(ctx.secNonce, k.nonce) };
}

export function contextKeysToJson(keys: readonly ContextKey[]): JsonValue {
  return keys.map((k) => [
    k.keyId.toHex(),
    k.mmrIndex === null ? null : u64Number(k.mmrIndex),
    u64Number(k.value),
  ]);
}

export function contextKeysFromJson(v: unknown, path: string): ContextKey[] {
  return asArray(v, path).map((item, i) => {
    const p = sub(path, i);
    const t = asArray(item, p);
    if (t.length !== 3) throw new JsonFormError(p, 'expected [key_id, mmr_index, amount]');
    return {
      keyId: asIdentifier(t[0], sub(p, 0)),
      mmrIndex: asOptU64(t[1], sub(p, 1)),
      value: asU64(t[2], sub(p, 2)),
    };
  });
}
