// Epic's proof builders (core/src/libtx/proof.rs): where the nonces and the 20-byte message of
// an output's proof come from, and how a rewound message is read back into a key identifier.
// They take already derived secrets, not a keychain:
//   - ProofBuilder: the master secret key (32 bytes), or its two hashes;
//   - LegacyProofBuilder: the master secret key (root_hash = blind_switch(0, master));
//   - ViewKey: the compressed public root key, plus its depth and child number for the
//     path rule. Confirming ownership (commit(v, derive_key(v, id, switch)) == C, or the
//     public-key CKD for view keys) is left to the caller, who holds the keychain.
import { blake2b } from '@noble/hashes/blake2.js';
import { blake2b256 } from '../../hash/blake2b.js';
import { blindSwitch } from '../commit.js';
import { isValidSecretKey, mulG, pointToCompressed, secretKeyFromBytes } from '../curve.js';
import { proveRange } from './prover.js';
import { rewindRange } from './rewind.js';

export const IDENTIFIER_SIZE = 17;
/** `SwitchCommitmentType` as its u8: None = 0, Regular = 1. */
export type SwitchType = 0 | 1;
export const SWITCH_NONE: SwitchType = 0;
export const SWITCH_REGULAR: SwitchType = 1;

/** A key identifier and switch type read back from a proof message. */
export interface OutputIdentity {
  /** depth ‖ four u32be path elements (17 bytes). */
  readonly keyId: Uint8Array;
  readonly switchType: SwitchType;
}

export interface ProofBuild {
  rewindNonce(commitment: Uint8Array): Uint8Array;
  privateNonce(commitment: Uint8Array): Uint8Array;
  proofMessage(keyId: Uint8Array, switchType: SwitchType): Uint8Array;
  /** The identity the message names, before the caller's commitment check; null if foreign. */
  parseMessage(message: Uint8Array): OutputIdentity | null;
}

export class ProofBuilderError extends Error {
  override readonly name = 'ProofBuilderError';
}

/** BLAKE2b-256 keyed with the 33-byte commitment; must be a valid secret key to serve as nonce. */
function commitKeyedNonce(commitment: Uint8Array, data: Uint8Array): Uint8Array {
  const nonce = blake2b(data, { dkLen: 32, key: commitment });
  if (!isValidSecretKey(nonce)) throw new ProofBuilderError('nonce is not a valid secret key');
  return nonce;
}

function checkKeyId(keyId: Uint8Array): void {
  if (keyId.length !== IDENTIFIER_SIZE) throw new ProofBuilderError('identifier must be 17 bytes');
}

/** The current builder: separate rewind and private nonces, message 00 00 switch ‖ id. */
export class ProofBuilder implements ProofBuild {
  constructor(
    /** BLAKE2b-256(compressed master public key); a view key holder has it too. */
    readonly rewindHash: Uint8Array,
    /** BLAKE2b-256(master secret key). */
    readonly privateHash: Uint8Array,
  ) {}

  static fromMasterSecret(masterSecret: Uint8Array): ProofBuilder {
    const k = secretKeyFromBytes(masterSecret);
    return new ProofBuilder(blake2b256(pointToCompressed(mulG(k))), blake2b256(masterSecret));
  }

  rewindNonce(commitment: Uint8Array): Uint8Array {
    return commitKeyedNonce(commitment, this.rewindHash);
  }

  privateNonce(commitment: Uint8Array): Uint8Array {
    return commitKeyedNonce(commitment, this.privateHash);
  }

  proofMessage(keyId: Uint8Array, switchType: SwitchType): Uint8Array {
    checkKeyId(keyId);
    const msg = new Uint8Array(20);
    msg[2] = switchType;
    msg.set(keyId, 3);
    return msg;
  }

  parseMessage(message: Uint8Array): OutputIdentity | null {
    return parseCurrentMessage(message);
  }
}

/** Message rule shared by ProofBuilder and ViewKey: depth is capped at 4. */
function parseCurrentMessage(msg: Uint8Array): OutputIdentity | null {
  if (msg.length !== 20 || msg[0] !== 0 || msg[1] !== 0) return null;
  const sw = msg[2];
  if (sw !== 0 && sw !== 1) return null;
  const keyId = new Uint8Array(IDENTIFIER_SIZE);
  keyId[0] = Math.min(msg[3] as number, 4);
  keyId.set(msg.subarray(4, 20), 1);
  return { keyId, switchType: sw };
}

/** The builder of header-version-6 outputs: one nonce for both roles, path-only message. */
export class LegacyProofBuilder implements ProofBuild {
  /** b32(blind_switch(0, master secret)) = derive_key(0, root id, Regular). */
  constructor(readonly rootHash: Uint8Array) {}

  static fromMasterSecret(masterSecret: Uint8Array): LegacyProofBuilder {
    return new LegacyProofBuilder(blindSwitch(0n, masterSecret));
  }

  rewindNonce(commitment: Uint8Array): Uint8Array {
    return commitKeyedNonce(commitment, this.rootHash);
  }

  privateNonce(commitment: Uint8Array): Uint8Array {
    return this.rewindNonce(commitment);
  }

  proofMessage(keyId: Uint8Array, _switchType: SwitchType): Uint8Array {
    checkKeyId(keyId);
    const msg = new Uint8Array(20);
    msg.set(keyId.subarray(1), 4);
    return msg;
  }

  parseMessage(msg: Uint8Array): OutputIdentity | null {
    if (msg.length !== 20 || msg[0] !== 0 || msg[1] !== 0 || msg[2] !== 0 || msg[3] !== 0) {
      return null;
    }
    const keyId = new Uint8Array(IDENTIFIER_SIZE);
    keyId[0] = 3; // the legacy message drops the depth; Epic assumes 3
    keyId.set(msg.subarray(4, 20), 1);
    return { keyId, switchType: SWITCH_REGULAR };
  }
}

/**
 * A view key only rewinds. Its nonce is ProofBuilder's rewind nonce (same rewind hash);
 * it cannot prove. Switch commitments cannot be confirmed from public keys, so Epic accepts only
 * None-switch outputs in practice (the caller's check).
 */
export class ViewKeyBuilder implements ProofBuild {
  readonly rewindHash: Uint8Array;

  constructor(
    publicRootKey: Uint8Array,
    /** Depth of the view key's extended public key. */
    readonly depth: number,
    /** Its child number (u32, as in the path). */
    readonly childNumber: number,
  ) {
    this.rewindHash = blake2b256(publicRootKey);
  }

  rewindNonce(commitment: Uint8Array): Uint8Array {
    return commitKeyedNonce(commitment, this.rewindHash);
  }

  privateNonce(): Uint8Array {
    throw new ProofBuilderError('a view key cannot build proofs');
  }

  proofMessage(): Uint8Array {
    throw new ProofBuilderError('a view key cannot build proofs');
  }

  /** Also applies the path rule: the view key must be an ancestor of the output's key. */
  parseMessage(message: Uint8Array): OutputIdentity | null {
    const id = parseCurrentMessage(message);
    if (id === null) return null;
    const pathDepth = id.keyId[0] as number;
    if (this.depth > pathDepth) return null;
    if (this.depth > 0 && pathDepth > 0) {
      const view = new DataView(id.keyId.buffer, id.keyId.byteOffset);
      if (view.getUint32(1 + 4 * (this.depth - 1), false) !== this.childNumber >>> 0) return null;
    }
    return id;
  }
}

export interface BuildProofInput {
  readonly value: bigint;
  /** γ = derive_key(value, keyId, switchType), 32 bytes. */
  readonly blind: Uint8Array;
  /** commit(value, γ), 33 bytes (the nonces are keyed with it). */
  readonly commitment: Uint8Array;
  readonly keyId: Uint8Array;
  readonly switchType: SwitchType;
}

/** `proof::create`: the output's 675-byte proof with the builder's nonces and message. */
export function buildProof(builder: ProofBuild, input: BuildProofInput): Uint8Array {
  return proveRange({
    value: input.value,
    blind: input.blind,
    rewindNonce: builder.rewindNonce(input.commitment),
    privateNonce: builder.privateNonce(input.commitment),
    message: builder.proofMessage(input.keyId, input.switchType),
  });
}

export interface RewoundOutput extends OutputIdentity {
  readonly value: bigint;
  /** Meaningful only for the legacy builder (private nonce = rewind nonce). */
  readonly blind: Uint8Array;
}

/**
 * `proof::rewind` up to the ownership check: value and identity if the message parses.
 * The caller must still compare commit(value, derive_key(value, keyId, switchType)) with C.
 */
export function rewindWithBuilder(
  builder: ProofBuild,
  commitment: Uint8Array,
  proof: Uint8Array,
): RewoundOutput | null {
  let nonce: Uint8Array;
  try {
    nonce = builder.rewindNonce(commitment);
  } catch {
    return null;
  }
  const r = rewindRange(commitment, proof, nonce);
  if (r === null) return null;
  const id = builder.parseMessage(r.message);
  return id === null ? null : { ...id, value: r.value, blind: r.blind };
}
