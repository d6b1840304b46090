// `wallet.seed` exactly as epic-wallet writes it (`impls/src/lifecycle/seed.rs`): pretty JSON
// (2-space indent, no trailing newline) with `encrypted_seed`, `salt`, `nonce` in that order.
// The plaintext is the raw BIP-39 entropy (16 or 32 bytes). Key = PBKDF2-HMAC-SHA512 of the
// UTF-8 password, 100 iterations, 8-byte salt, 32 bytes; cipher = ChaCha20-Poly1305 with a
// 12-byte nonce and no AAD, the 16-byte tag appended to the ciphertext. Any decryption failure
// (wrong password, altered file, bad hex) is Epic's `Encryption` error.
import { createCipheriv, createDecipheriv, pbkdf2Sync, randomBytes } from 'node:crypto';
import { fromHex, toHex } from '../bytes.js';
import { JsonError, parseJson } from '../json/parse.js';
import { stringifyJson } from '../json/stringify.js';
import { isJsonObject } from '../json/value.js';
import { WalletFailure } from './errors.js';

export const SEED_FILE_NAME = 'wallet.seed';
/** A seed file is about 200 bytes; anything past this is not one. */
export const SEED_FILE_LIMIT = 64 * 1024;

const KDF_ITERATIONS = 100;
const KEY_SIZE = 32;
const SALT_SIZE = 8;
const NONCE_SIZE = 12;
const TAG_SIZE = 16;

export interface EncryptedWalletSeed {
  /** hex(ciphertext ‖ tag). */
  readonly encryptedSeed: string;
  readonly salt: string;
  readonly nonce: string;
}

function deriveKey(password: string, salt: Uint8Array): Buffer {
  return pbkdf2Sync(Buffer.from(password, 'utf8'), salt, KDF_ITERATIONS, KEY_SIZE, 'sha512');
}

export interface EncryptOptions {
  /** Fixed salt and nonce, for tests; random otherwise. */
  readonly salt?: Uint8Array;
  readonly nonce?: Uint8Array;
}

export function encryptSeed(
  seed: Uint8Array,
  password: string,
  opts: EncryptOptions = {},
): EncryptedWalletSeed {
  const salt = opts.salt ?? randomBytes(SALT_SIZE);
  const nonce = opts.nonce ?? randomBytes(NONCE_SIZE);
  if (nonce.length !== NONCE_SIZE) throw new RangeError('the nonce is 12 bytes');
  const cipher = createCipheriv('chacha20-poly1305', deriveKey(password, salt), nonce, {
    authTagLength: TAG_SIZE,
  });
  const body = Buffer.concat([cipher.update(seed), cipher.final(), cipher.getAuthTag()]);
  return { encryptedSeed: toHex(body), salt: toHex(salt), nonce: toHex(nonce) };
}

/** The seed bytes, or `WalletFailure` `Encryption` when the password or the file is wrong. */
export function decryptSeed(enc: EncryptedWalletSeed, password: string): Uint8Array {
  const body = fromHex(enc.encryptedSeed);
  const salt = fromHex(enc.salt);
  const nonce = fromHex(enc.nonce);
  // Epic reads the first 12 nonce bytes (a shorter one panics there).
  if (body === null || salt === null || nonce === null) throw WalletFailure.encryption();
  if (nonce.length < NONCE_SIZE || body.length < TAG_SIZE) throw WalletFailure.encryption();
  const decipher = createDecipheriv(
    'chacha20-poly1305',
    deriveKey(password, salt),
    nonce.subarray(0, NONCE_SIZE),
    { authTagLength: TAG_SIZE },
  );
  decipher.setAuthTag(body.subarray(body.length - TAG_SIZE));
  try {
    const clear = decipher.update(body.subarray(0, body.length - TAG_SIZE));
    return new Uint8Array(Buffer.concat([clear, decipher.final()]));
  } catch {
    throw WalletFailure.encryption();
  }
}

/** serde_json's `to_string_pretty` of the struct. */
export function seedFileText(enc: EncryptedWalletSeed): string {
  return stringifyJson(
    { encrypted_seed: enc.encryptedSeed, salt: enc.salt, nonce: enc.nonce },
    { pretty: true },
  );
}

function notASeedFile(reason: string): WalletFailure {
  return WalletFailure.genericError(`${SEED_FILE_NAME} is not a wallet seed file: ${reason}`);
}

/** Parses the file's text; anything but an object with the three strings is refused. */
export function parseSeedFile(text: string): EncryptedWalletSeed {
  let v: unknown;
  try {
    v = parseJson(text, { maxLength: SEED_FILE_LIMIT });
  } catch (e) {
    if (e instanceof JsonError) throw notASeedFile(e.message);
    throw e;
  }
  if (!isJsonObject(v)) throw notASeedFile('not a JSON object');
  const get = (k: string): string => {
    const s = v[k];
    if (typeof s !== 'string') throw notASeedFile(`missing field \`${k}\``);
    return s;
  };
  return { encryptedSeed: get('encrypted_seed'), salt: get('salt'), nonce: get('nonce') };
}
