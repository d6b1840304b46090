/**
 * The keychain, byte-compatible with Epic Cash 4.0 (`epic/keychain`, `epic-wallet`).
 *
 * Standard parts: the BIP39 English word list and bit layout, BIP32 child derivation (CKD),
 * base58check extended keys. Non-standard parts, easy to get wrong:
 *
 * - Master key: HMAC-SHA512 keyed with the ASCII string "IamVoldemort" (not "Bitcoin seed");
 *   secret = I[0..32] (an invalid one is an error, no retry), chain code = I[32..64]. The
 *   floonet flag changes only the printed version bytes (gprv/gpub vs fprv/fpub).
 * - Which seed feeds that HMAC depends on the caller:
 *   - epic-wallet (new wallet, recovery): the raw BIP39 *entropy* (16 or 32 bytes) —
 *     `ExtKeychain.fromWalletMnemonic`, or `fromSeed(entropy)`.
 *   - `ExtKeychain::from_mnemonic` (Epic's tests, the foundation test file): the BIP39 PBKDF2
 *     seed, computed over the mnemonic and passphrase bytes exactly as given — no NFKD, no
 *     whitespace normalisation — after the checksum is verified (`ExtKeychain.fromMnemonic`).
 * - Derivation fails instead of skipping an index when I_L ≥ n or the child key is zero.
 * - Keys are addressed by 17-byte identifiers (depth ‖ four u32 BE elements), normally
 *   non-hardened: accounts are m/k/0, their outputs m/k/0/i.
 * - Output keys are switch-blinded: x' = x + SHA256(commit(v, x) ‖ x·J) (Regular), so the
 *   key of an output depends on its value.
 * - Blinding sums follow Epic's quirks: invalid inputs are silently dropped, a zero total is
 *   an error (see blind.ts).
 */

export * from './base58.js';
export * from './bip39.js';
export * from './blind.js';
export * from './errors.js';
export * from './extkey.js';
export * from './identifier.js';
export * from './keychain.js';
export * from './secret.js';
export * from './switch_type.js';
