// Base58 and Base58Check (Bitcoin alphabet), used only to print and parse extended keys.

import { sha256 } from '@noble/hashes/sha2.js';
import { KeychainError } from './errors.js';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const DIGIT: ReadonlyMap<string, number> = new Map([...ALPHABET].map((c, i) => [c, i]));

export function base58Encode(data: Uint8Array): string {
  let zeros = 0;
  while (zeros < data.length && data[zeros] === 0) zeros++;
  let n = 0n;
  for (const b of data) n = (n << 8n) | BigInt(b);
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % 58n)] + out;
    n /= 58n;
  }
  return '1'.repeat(zeros) + out;
}

export function base58Decode(text: string): Uint8Array {
  let zeros = 0;
  while (zeros < text.length && text[zeros] === '1') zeros++;
  let n = 0n;
  for (const c of text) {
    const d = DIGIT.get(c);
    if (d === undefined) throw new KeychainError('InvalidBase58', `invalid base58 character ${c}`);
    n = n * 58n + BigInt(d);
  }
  const body: number[] = [];
  while (n > 0n) {
    body.unshift(Number(n & 0xffn));
    n >>= 8n;
  }
  return Uint8Array.from([...new Array<number>(zeros).fill(0), ...body]);
}

function checksum(data: Uint8Array): Uint8Array {
  return sha256(sha256(data)).subarray(0, 4);
}

/** Base58 of data ‖ first 4 bytes of SHA256(SHA256(data)). */
export function base58CheckEncode(data: Uint8Array): string {
  const full = new Uint8Array(data.length + 4);
  full.set(data);
  full.set(checksum(data), data.length);
  return base58Encode(full);
}

export function base58CheckDecode(text: string): Uint8Array {
  const full = base58Decode(text);
  if (full.length < 4) throw new KeychainError('InvalidBase58', 'base58check data too short');
  const data = full.subarray(0, full.length - 4);
  const expected = checksum(data);
  for (let i = 0; i < 4; i++) {
    if (full[data.length + i] !== expected[i]) {
      throw new KeychainError('InvalidBase58', 'base58check checksum mismatch');
    }
  }
  return Uint8Array.from(data);
}
