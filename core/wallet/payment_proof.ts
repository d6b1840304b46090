// Payment proofs (epic-wallet `address.rs`, `internal/tx.rs`): ed25519 addresses derived from
// the keychain, their Tor onion-v3 spelling, the 73-byte message both parties sign, and the
// checks the sender runs at finalize time.
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha3_256 } from '@noble/hashes/sha3.js';
import { concatBytes, equalBytes, fromHex } from '../bytes.js';
import { blake2b256 } from '../hash/blake2b.js';
import { ExtKeychainPath, type Identifier } from '../keychain/identifier.js';
import type { ExtKeychain } from '../keychain/keychain.js';
import { isValidSecretKey } from '../keychain/secret.js';
import { SwitchCommitmentType } from '../keychain/switch_type.js';
import { type Slate, slateErrors } from './slate.js';
import { calcExcess } from './slate_sign.js';

export const PROOF_ADDRESS_SIZE = 32;
export const PROOF_SIGNATURE_SIZE = 64;
const ONION_VERSION = 0x03;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/**
 * The key id of a proof address: the account path with element 1 set to 1, one level deeper,
 * ending in `index` (m/0/0 → m/0/1/index).
 */
export function proofAddressKeyId(parentKeyId: Identifier, index: number): Identifier {
  const p = parentKeyId.toPath();
  const depth = p.depth + 1;
  if (depth > 4) throw slateErrors.paymentProof(`account path of depth ${p.depth} is too deep`);
  const els = [...p.path];
  els[1] = 1;
  els[depth - 1] = index;
  return new ExtKeychainPath(depth, els[0], els[1], els[2], els[3]).toIdentifier();
}

/**
 * `address_from_derivation_path`: BLAKE2b-256 of the un-switched key at that id. The 32 bytes
 * are both a secp256k1 secret key (Epic checks that) and the ed25519 secret seed.
 */
export function proofAddressSecret(
  keychain: ExtKeychain,
  parentKeyId: Identifier,
  index: number,
): Uint8Array {
  const id = proofAddressKeyId(parentKeyId, index);
  const hashed = blake2b256(keychain.deriveKey(0n, id, SwitchCommitmentType.None));
  if (!isValidSecretKey(hashed)) throw slateErrors.secp('InvalidSecretKey');
  return hashed;
}

/** The ed25519 public key (the proof address) of a proof secret. */
export function proofAddressFromSecret(secret: Uint8Array): Uint8Array {
  return ed25519.getPublicKey(secret);
}

/** `get_public_proof_address` for the account at `index` (Epic always uses 0). */
export function proofAddress(
  keychain: ExtKeychain,
  parentKeyId: Identifier,
  index = 0,
): Uint8Array {
  return proofAddressFromSecret(proofAddressSecret(keychain, parentKeyId, index));
}

function isValidEd25519Point(pub: Uint8Array): boolean {
  try {
    ed25519.Point.fromBytes(pub);
    return true;
  } catch {
    return false;
  }
}

function base32Encode(bytes: Uint8Array): string {
  let out = '';
  let acc = 0;
  let bits = 0;
  for (const b of bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(acc >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(acc << (5 - bits)) & 31];
  return out;
}

/** Decodes unpadded upper-case base32 whose length is a whole number of bytes; null if not. */
function base32Decode(text: string): Uint8Array | null {
  if ((text.length * 5) % 8 !== 0) return null;
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const ch of text) {
    const v = BASE32.indexOf(ch);
    if (v < 0) return null;
    acc = ((acc << 5) | v) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      out.push((acc >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Uint8Array.from(out);
}

/** `onion_v3_from_pubkey`: base32(pub ‖ checksum[0..2] ‖ 03), lower case, 56 chars. */
export function onionV3FromPubkey(pub: Uint8Array): string {
  const checksum = sha3_256(
    concatBytes(new TextEncoder().encode('.onion checksum'), pub, Uint8Array.of(ONION_VERSION)),
  );
  const raw = concatBytes(pub, checksum.subarray(0, 2), Uint8Array.of(ONION_VERSION));
  return base32Encode(raw).toLowerCase();
}

/**
 * `pubkey_from_onion_v3`: accepts an optional http(s):// prefix and .onion suffix in any case;
 * the address must re-encode to itself. Errors carry Epic's texts.
 */
export function pubkeyFromOnionV3(address: string): Uint8Array {
  let input = address.toUpperCase();
  input = input.replaceAll('HTTP://', '').replaceAll('HTTPS://', '');
  if (input.endsWith('.ONION')) input = input.replaceAll('.ONION', '');
  if (input.length !== 56) throw slateErrors.addressDecoding('Input address is wrong length');
  const raw = base32Decode(input);
  if (raw === null) throw slateErrors.addressDecoding('Input address is not base 32');
  const pub = raw.slice(0, PROOF_ADDRESS_SIZE);
  if (!isValidEd25519Point(pub)) {
    throw slateErrors.addressDecoding('Provided onion V3 address is invalid (parsing key)');
  }
  if (onionV3FromPubkey(pub).toUpperCase() !== input) {
    throw slateErrors.addressDecoding('Provided onion V3 address is invalid (no match)');
  }
  return pub;
}

/** `ed25519_parse_pubkey`: 32 bytes of hex that decode to a curve point. */
export function parseProofAddressHex(hex: string): Uint8Array {
  const bytes = fromHex(hex.startsWith('0x') ? hex.slice(2) : hex);
  if (bytes === null) throw slateErrors.addressDecoding('Invalid character');
  if (bytes.length !== PROOF_ADDRESS_SIZE) {
    throw slateErrors.addressDecoding('Public key must be 32 bytes');
  }
  if (!isValidEd25519Point(bytes)) throw slateErrors.addressDecoding('Not a valid public key');
  return bytes;
}

/** `payment_proof_message`: amount (u64 BE) ‖ kernel excess (33) ‖ sender address (32). */
export function paymentProofMessage(
  amount: bigint,
  excess: Uint8Array,
  senderAddress: Uint8Array,
): Uint8Array {
  const a = new Uint8Array(8);
  new DataView(a.buffer).setBigUint64(0, BigInt.asUintN(64, amount));
  return concatBytes(a, excess, senderAddress);
}

/** `create_payment_proof_signature`: ed25519 signature by the proof secret. */
export function signPaymentProof(
  amount: bigint,
  excess: Uint8Array,
  senderAddress: Uint8Array,
  secret: Uint8Array,
): Uint8Array {
  return ed25519.sign(paymentProofMessage(amount, excess, senderAddress), secret);
}

/** ed25519 verification; false (never throws) for malformed keys or signatures. */
export function verifyProofSignature(
  address: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
): boolean {
  if (signature.length !== PROOF_SIGNATURE_SIZE || address.length !== PROOF_ADDRESS_SIZE) {
    return false;
  }
  try {
    return ed25519.verify(signature, message, address);
  } catch {
    return false;
  }
}

/** The receiver's step in `receive_tx`: sign with the proof secret over the slate's excess. */
export function addReceiverSignature(slate: Slate, receiverSecret: Uint8Array): Slate {
  const p = slate.paymentProof;
  if (p === null) return slate;
  const sig = signPaymentProof(slate.amount, calcExcess(slate), p.senderAddress, receiverSecret);
  return { ...slate, paymentProof: { ...p, receiverSignature: sig } };
}

/** What the sender stored about the proof when it locked the outputs. */
export interface StoredProofAddresses {
  readonly receiverAddress: Uint8Array;
}

/**
 * `verify_slate_payment_proof` at finalize: when proof info was stored the slate must carry
 * one; its sender and receiver addresses must match ours and the stored one, and the
 * receiver's signature must verify over the message built with the slate's excess.
 */
export function verifySlatePaymentProof(
  slate: Slate,
  stored: StoredProofAddresses | null,
  ownSenderAddress: Uint8Array,
): void {
  const p = slate.paymentProof;
  if (stored !== null && p === null) {
    throw slateErrors.paymentProof('Expected Payment Proof for this Transaction is not present');
  }
  if (p === null) return;
  if (stored === null) throw slateErrors.paymentProof('Original proof info not stored in tx');
  if (!equalBytes(p.senderAddress, ownSenderAddress)) {
    throw slateErrors.paymentProof(
      'Sender address on slate does not match original sender address',
    );
  }
  if (!equalBytes(stored.receiverAddress, p.receiverAddress)) {
    throw slateErrors.paymentProof(
      'Recipient address on slate does not match original recipient address',
    );
  }
  const msg = paymentProofMessage(slate.amount, calcExcess(slate), ownSenderAddress);
  if (p.receiverSignature === null) {
    throw slateErrors.paymentProof('Recipient did not provide requested proof signature');
  }
  if (!verifyProofSignature(p.receiverAddress, msg, p.receiverSignature)) {
    throw slateErrors.paymentProof('Invalid proof signature');
  }
}
