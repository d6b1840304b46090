// Wallet lifecycle as Epic's `DefaultLCProvider` + `LMDBBackend::set_keychain`/`keychain(mask)`
// run it: create (new entropy or a recovery phrase), open (decrypt the seed, build the keychain,
// issue a token), token check, close, get_mnemonic, change_password, delete. Error values and
// texts are Epic's (`impls/src/lifecycle/default.rs`).
//
// Tokens: `open_wallet` draws a random valid secp256k1 scalar, keeps only the keychain whose
// master key is XORed with it, and returns it. A call unmasks with its token. Epic then checks a
// BLAKE2b checksum of the root key; comparing a hash of the token gives the same verdicts
// (a wrong or missing token after a masked open, or any token after an unmasked open, is
// `InvalidKeychainMask`) without an EC derivation per call. Every open replaces the previous
// state, so older tokens stop working.

import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, unlinkSync } from 'node:fs';
import { createFileAtomic, describeFsError, readBounded } from '../../config/files.js';
import { equalBytes } from '../../core/bytes.js';
import { blake2b256 } from '../../core/hash/blake2b.js';
import { Bip39Error, entropyToMnemonic, mnemonicToEntropy } from '../../core/keychain/bip39.js';
import { ExtKeychain } from '../../core/keychain/keychain.js';
import { randomSecretKey } from '../../core/keychain/secret.js';
import { WalletFailure } from '../../core/wallet/errors.js';
import {
  decryptSeed,
  encryptSeed,
  parseSeedFile,
  SEED_FILE_LIMIT,
  seedFileText,
} from '../../core/wallet/seed_file.js';
import { type WalletLayout, walletLayout } from './layout.js';
import { WalletStore } from './store.js';

/** BIP-39 entropy sizes in bytes: 16 → 12 words … 32 → 24 words (the default). */
const ENTROPY_SIZES = [16, 20, 24, 28, 32];
export const DEFAULT_ENTROPY_SIZE = 32;
const SEED_FILE_MODE = 0o600;
const DIR_MODE = 0o700;

const OPEN_FAILED = 'Error opening wallet (is password correct?)';
const SEED_FILE_FAILED = 'Error opening wallet seed file';
const NOT_OPENED = 'Wallet has not been opened';

export interface CreateWalletArgs {
  /** A recovery phrase, or null for new random entropy. */
  readonly mnemonic: string | null;
  /** Entropy bytes for a new seed (ignored with a mnemonic). */
  readonly mnemonicLength: number;
  readonly password: string;
}

interface OpenState {
  readonly store: WalletStore;
  /** The keychain with its master key XORed with the token (the plain one when unmasked). */
  readonly masked: ExtKeychain;
  /** BLAKE2b-256 of the token, or null when opened without one. */
  readonly tokenHash: Uint8Array | null;
}

export interface LifecycleOptions {
  /** The wallet's top directory (`<top>/wallet_data` holds seed and database). */
  readonly topDir: string;
  /** `data_file_dir` when the config moves it away from `<top>/wallet_data`. */
  readonly dataDir?: string;
  /** Floonet keys print with other version bytes; the keys themselves do not change. */
  readonly isFloonet?: boolean;
}

export class WalletLifecycle {
  private top: string;
  private dataDir: string | undefined;
  private readonly isFloonet: boolean;
  private state: OpenState | null = null;

  constructor(opts: LifecycleOptions) {
    this.top = opts.topDir;
    this.dataDir = opts.dataDir;
    this.isFloonet = opts.isFloonet === true;
  }

  get layout(): WalletLayout {
    return walletLayout(this.top, this.dataDir);
  }

  getTopLevelDirectory(): string {
    return this.top;
  }

  /** Points later calls at another wallet; an opened wallet stays open, as in Epic. */
  setTopLevelDirectory(dir: string): void {
    this.top = dir;
    this.dataDir = undefined;
  }

  walletExists(): boolean {
    return existsSync(this.layout.seedFile);
  }

  get isOpen(): boolean {
    return this.state !== null;
  }

  /**
   * `create_wallet`: writes `wallet.seed` (mode 0600) and the database, whose init status says
   * whether a recovered wallet still needs its first scan.
   */
  createWallet(args: CreateWalletArgs): void {
    const layout = this.layout;
    if (existsSync(layout.seedFile)) throw WalletFailure.walletSeedExists(layout.dataDir);
    const seed =
      args.mnemonic === null ? newEntropy(args.mnemonicLength) : entropyOf(args.mnemonic);
    const text = seedFileText(encryptSeed(seed, args.password));
    const created = fsStep('Error creating wallet', () => {
      mkdirSync(layout.dataDir, { recursive: true, mode: DIR_MODE });
      return createFileAtomic(layout.seedFile, text, SEED_FILE_MODE);
    });
    if (!created) throw WalletFailure.walletSeedExists(layout.dataDir);
    const store = openStore(layout, 'Error creating wallet');
    try {
      store.saveInitStatus(args.mnemonic === null ? 'InitNoScanning' : 'InitNeedsScanning');
    } finally {
      store.close();
    }
  }

  /**
   * `open_wallet`: decrypts the seed and keeps the keychain. With `mask` a fresh token is
   * returned and required from then on; without (the CLI's way) calls pass no token.
   */
  openWallet(password: string, mask: boolean): Uint8Array | null {
    const layout = this.layout;
    let seed: Uint8Array;
    try {
      seed = readSeed(layout, password);
    } catch (e) {
      if (e instanceof WalletFailure) throw WalletFailure.lifecycle(OPEN_FAILED);
      throw e;
    }
    let keychain: ExtKeychain;
    try {
      keychain = ExtKeychain.fromSeed(seed, this.isFloonet);
    } catch {
      throw WalletFailure.lifecycle('Error deriving keychain');
    }
    const store = openStore(layout, 'Error opening wallet');
    const token = mask ? randomSecretKey() : null;
    this.closeWallet();
    this.state = {
      store,
      masked: token === null ? keychain : keychain.maskMasterKey(token),
      tokenHash: token === null ? null : blake2b256(token),
    };
    return token;
  }

  /** `close_wallet`: forgets the keychain; closing a closed wallet is fine. */
  closeWallet(): void {
    this.state?.store.close();
    this.state = null;
  }

  /** The opened wallet's store, or `Lifecycle: Wallet has not been opened`. */
  store(): WalletStore {
    if (this.state === null) throw WalletFailure.lifecycle(NOT_OPENED);
    return this.state.store;
  }

  /**
   * The keychain for a call carrying `token` (Epic's `keychain(mask)`): `Lifecycle: Wallet has
   * not been opened` before an open, `InvalidKeychainMask` for a token that is not the current
   * one (including null after a masked open, and any token after an unmasked open).
   */
  keychain(token: Uint8Array | null): ExtKeychain {
    const s = this.state;
    if (s === null) throw WalletFailure.lifecycle(NOT_OPENED);
    if (token === null || s.tokenHash === null) {
      if (token !== null || s.tokenHash !== null) throw WalletFailure.invalidKeychainMask();
      return s.masked;
    }
    if (token.length !== 32 || !timingSafeEqual(blake2b256(token), s.tokenHash)) {
      throw WalletFailure.invalidKeychainMask();
    }
    return s.masked.maskMasterKey(token);
  }

  /** `get_mnemonic`: the recovery phrase, after checking the password. */
  getMnemonic(password: string): string {
    const seed = this.readSeedOr(password, SEED_FILE_FAILED);
    try {
      return entropyToMnemonic(seed);
    } catch {
      throw WalletFailure.lifecycle('Error recovering wallet seed');
    }
  }

  /**
   * `change_password`: the old file is renamed to `wallet.seed.bak` (or `.bak.N` when taken),
   * the seed is written again under the new password and read back; the backup is removed only
   * when asked and only once the new file is proven.
   */
  changePassword(oldPassword: string, newPassword: string, removeBackup: boolean): void {
    const layout = this.layout;
    const seed = this.readSeedOr(oldPassword, SEED_FILE_FAILED);
    const backup = backupSeedFile(layout.seedFile);
    const text = seedFileText(encryptSeed(seed, newPassword));
    const written = fsStep('Error writing wallet seed file', () =>
      createFileAtomic(layout.seedFile, text, SEED_FILE_MODE),
    );
    if (!written) throw WalletFailure.lifecycle(SEED_FILE_FAILED);
    const again = this.readSeedOr(newPassword, SEED_FILE_FAILED);
    if (!equalBytes(seed, again)) {
      throw WalletFailure.lifecycle(
        'New and Old wallet seeds are not equal on password change, not removing backups.',
      );
    }
    if (removeBackup) fsStep('Error removing backup seed file', () => unlinkSync(backup));
  }

  /**
   * `delete_wallet`. Epic removes the whole top directory; ours is by default the node's
   * network directory (chain data, node secret), so only the wallet's data directory goes.
   */
  deleteWallet(): void {
    this.closeWallet();
    try {
      rmSync(this.layout.dataDir, { recursive: true, force: true });
    } catch (e) {
      throw WalletFailure.lifecycle(`Error deleting wallet: ${describeFsError(e)}`);
    }
  }

  private readSeedOr(password: string, message: string): Uint8Array {
    try {
      return readSeed(this.layout, password);
    } catch (e) {
      if (e instanceof WalletFailure) throw WalletFailure.lifecycle(message);
      throw e;
    }
  }
}

/** Runs a filesystem step; its failure becomes `Lifecycle: <what>: <reason>`. */
function fsStep<T>(what: string, step: () => T): T {
  try {
    return step();
  } catch (e) {
    throw WalletFailure.lifecycle(`${what}: ${describeFsError(e)}`);
  }
}

function newEntropy(size: number): Uint8Array {
  if (!ENTROPY_SIZES.includes(size)) {
    throw WalletFailure.argumentError(
      `mnemonic_length must be 16, 20, 24, 28 or 32 (bytes of entropy), not ${size}`,
    );
  }
  return new Uint8Array(randomBytes(size));
}

/** The entropy of a recovery phrase; an invalid phrase is Epic's `validate_mnemonic` error. */
function entropyOf(mnemonic: string): Uint8Array {
  try {
    return mnemonicToEntropy(mnemonic);
  } catch (e) {
    if (e instanceof Bip39Error) throw WalletFailure.genericError('Validating mnemonic');
    throw e;
  }
}

/** Decrypts `wallet.seed`; every failure (missing, unreadable, malformed, wrong password) is a WalletFailure. */
function readSeed(layout: WalletLayout, password: string): Uint8Array {
  let text: string;
  try {
    text = readBounded(layout.seedFile, SEED_FILE_LIMIT).toString('utf8');
  } catch (e) {
    if (!existsSync(layout.seedFile)) throw WalletFailure.walletSeedDoesntExist();
    throw WalletFailure.genericError(`cannot read wallet seed file: ${describeFsError(e)}`);
  }
  return decryptSeed(parseSeedFile(text), password);
}

function openStore(layout: WalletLayout, what: string): WalletStore {
  try {
    return new WalletStore(layout);
  } catch (e) {
    const why = e instanceof WalletFailure ? e.message : String(e);
    throw WalletFailure.lifecycle(`${what}: ${why}, Data Dir: ${layout.dataDir}`);
  }
}

/** Renames the seed file to the first free `wallet.seed.bak`, `.bak.1`, `.bak.2`, … */
function backupSeedFile(seedFile: string): string {
  let name = `${seedFile}.bak`;
  for (let i = 1; existsSync(name); i++) name = `${seedFile}.bak.${i}`;
  try {
    renameSync(seedFile, name);
  } catch {
    throw WalletFailure.lifecycle('Error temporarily backing up existing seed');
  }
  return name;
}
