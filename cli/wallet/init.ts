// `init`: the configuration (when missing) and a new wallet seed, or one recovered from a
// recovery phrase (`-r`); `recover` shows the phrase again. The phrase goes to standard output
// only; nothing is logged.

import type { WalletConfig } from '../../config/wallet_toml.js';
import { newWalletPassword, readLine } from './password.js';
import type { WalletGlobals } from './session.js';
import { ensureWalletConfig, openSession } from './session.js';

/** Epic's `show_recovery_phrase`. */
const phraseText = (words: unknown): string =>
  `Your recovery phrase is:\n\n${String(words)}\n\nPlease back-up these words in a non-digital format.\n`;

export interface InitOptions {
  readonly recover?: boolean;
  /** `-s`: 12 words (16 bytes of entropy) instead of 24. */
  readonly short_wordlist?: boolean;
}

export async function initWallet(g: WalletGlobals, o: InitOptions): Promise<number> {
  const config = ensureWalletConfig(g);
  const phrase = o.recover ? (await readLine('Please enter your recovery phrase:\n')).trim() : null;
  const password = await newWalletPassword(g.pass);
  const session = await openSession(config, null, 'inline');
  try {
    await session.api.createWallet(null, phrase, o.short_wordlist ? 16 : 32, password);
    if (phrase !== null) {
      process.stdout.write('Wallet recovered from the phrase. Run `scan` to find its outputs.\n');
      return 0;
    }
    const words = await session.api.getMnemonic(null, password);
    process.stdout.write(phraseText(words));
    return 0;
  } finally {
    await session.close();
  }
}

/**
 * `recover`: shows the recovery phrase of an existing wallet, as epic-wallet's `recover` does
 * (the wallet is not opened; the password is checked by decrypting the seed). To restore a
 * wallet from a phrase, `init -r`.
 */
export async function showRecoveryPhrase(config: WalletConfig, password: string): Promise<number> {
  const session = await openSession(config, null, 'inline');
  try {
    const words = await session.api.getMnemonic(null, password);
    process.stdout.write(phraseText(words));
    return 0;
  } finally {
    await session.close();
  }
}
