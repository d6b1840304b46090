// BIP39 mnemonics as Epic's keychain handles them: the standard English word list and bit
// layout, but the seed is PBKDF2 over the mnemonic and passphrase bytes exactly as given (no
// NFKD, no whitespace clean-up), and only after the checksum has been verified.

import { pbkdf2 } from '@noble/hashes/pbkdf2.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { wordlist } from '@scure/bip39/wordlists/english.js';

export const BIP39_WORDS: readonly string[] = wordlist;

const WORD_INDEX: ReadonlyMap<string, number> = new Map(wordlist.map((w, i) => [w, i]));

const WORD_COUNTS = [12, 15, 18, 21, 24];
const ENTROPY_SIZES = [16, 20, 24, 28, 32];

// Rust's `split_whitespace` splits on the Unicode White_Space property. JavaScript's `\s`
// differs in two code points (it adds U+FEFF and lacks U+0085), so the class is spelled out.
const RUST_WHITESPACE =
  /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

export type Bip39ErrorKind = 'BadWord' | 'BadChecksum' | 'InvalidLength';

/** Epic's `mnemonic::Error`, with its three variants and their messages. */
export class Bip39Error extends Error {
  private constructor(
    readonly kind: Bip39ErrorKind,
    message: string,
    /** BadWord: the offending word. */
    readonly word?: string,
    /** BadChecksum: the checksum bits carried by the last word. */
    readonly expected?: number,
    /** BadChecksum: the checksum bits computed from the entropy. */
    readonly actual?: number,
    /** InvalidLength: the word count or entropy byte count that was refused. */
    readonly length?: number,
  ) {
    super(message);
    this.name = 'Bip39Error';
  }

  static badWord(word: string): Bip39Error {
    return new Bip39Error('BadWord', `invalid bip39 word ${word}`, word);
  }

  static badChecksum(expected: number, actual: number): Bip39Error {
    const msg = `checksum 0x${actual.toString(16)} does not match expected 0x${expected.toString(16)}`;
    return new Bip39Error('BadChecksum', msg, undefined, expected, actual);
  }

  static invalidLength(length: number): Bip39Error {
    const msg = `invalid mnemonic/entropy length ${length}`;
    return new Bip39Error('InvalidLength', msg, undefined, undefined, undefined, length);
  }
}

/** The words of a mnemonic, split the way Rust's `str::split_whitespace` does. */
export function splitMnemonic(mnemonic: string): string[] {
  return mnemonic.split(RUST_WHITESPACE).filter((w) => w.length > 0);
}

/** Index of a word in the English list; case-sensitive, like Epic's binary search. */
export function wordIndex(word: string): number {
  const index = WORD_INDEX.get(word);
  if (index === undefined) throw Bip39Error.badWord(word);
  return index;
}

/** The first `bits` bits of SHA-256(entropy), as a number (bits ≤ 8). */
function checksumBits(entropy: Uint8Array, bits: number): number {
  return (sha256(entropy)[0] as number) >> (8 - bits);
}

/** Mnemonic → entropy bytes; checks the length first, then every word, then the checksum. */
export function mnemonicToEntropy(mnemonic: string): Uint8Array {
  const words = splitMnemonic(mnemonic);
  if (!WORD_COUNTS.includes(words.length)) throw Bip39Error.invalidLength(words.length);
  const indexes = words.map(wordIndex);
  const csBits = words.length / 3;
  const entropy = new Uint8Array((words.length * 11 - csBits) / 8);
  let bit = 0;
  let checksum = 0;
  for (const index of indexes) {
    for (let i = 10; i >= 0; i--, bit++) {
      const set = (index >> i) & 1;
      if (bit < entropy.length * 8) entropy[bit >> 3] |= set << (7 - (bit & 7));
      else checksum = (checksum << 1) | set;
    }
  }
  const actual = checksumBits(entropy, csBits);
  if (actual !== checksum) throw Bip39Error.badChecksum(checksum, actual);
  return entropy;
}

/** Entropy of 16, 20, 24, 28 or 32 bytes → mnemonic words joined by single spaces. */
export function entropyToMnemonic(entropy: Uint8Array): string {
  if (!ENTROPY_SIZES.includes(entropy.length)) throw Bip39Error.invalidLength(entropy.length);
  const csBits = entropy.length / 4;
  const checksum = checksumBits(entropy, csBits);
  const totalBits = entropy.length * 8 + csBits;
  const words: string[] = [];
  let index = 0;
  for (let bit = 0; bit < totalBits; bit++) {
    const set =
      bit < entropy.length * 8
        ? ((entropy[bit >> 3] as number) >> (7 - (bit & 7))) & 1
        : (checksum >> (totalBits - 1 - bit)) & 1;
    index = (index << 1) | set;
    if (bit % 11 === 10) {
      words.push(wordlist[index] as string);
      index = 0;
    }
  }
  return words.join(' ');
}

const utf8 = new TextEncoder();

/**
 * Epic's `mnemonic::to_seed`: validates the mnemonic, then PBKDF2-HMAC-SHA512 with the raw UTF-8
 * bytes of the mnemonic (as given, not normalised) and salt "mnemonic" ‖ passphrase, 2048 rounds.
 */
export function mnemonicToSeed(mnemonic: string, passphrase = ''): Uint8Array {
  mnemonicToEntropy(mnemonic);
  const salt = utf8.encode(`mnemonic${passphrase}`);
  return pbkdf2(sha512, utf8.encode(mnemonic), salt, { c: 2048, dkLen: 64 });
}

/** Whether a mnemonic would be accepted by `mnemonicToEntropy`. */
export function isValidMnemonic(mnemonic: string): boolean {
  try {
    mnemonicToEntropy(mnemonic);
    return true;
  } catch (e) {
    if (e instanceof Bip39Error) return false;
    throw e;
  }
}
