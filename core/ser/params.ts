// What a decoder/encoder must know beyond the bytes: the protocol version and the few
// chain-type parameters that change the wire format or its read-time checks.

/** Epic's `ProtocolVersion`: v1 writes every kernel's features in 17 bytes, v2 compactly. */
export type ProtocolVersion = number;

export const PROTOCOL_VERSION_1: ProtocolVersion = 1;
export const PROTOCOL_VERSION_2: ProtocolVersion = 2;

export interface WireParams {
  /** Number of Cuckoo nonces in a proof (not on the wire). */
  readonly proofSize: number;
  /** Height from which headers carry version 7 instead of 6. */
  readonly headerV7Height: bigint;
  /** Cap used by the body read pre-check and the body weight rules. */
  readonly maxBlockWeight: number;
}

export function headerVersionAt(params: WireParams, height: bigint): number {
  return height < params.headerV7Height ? 6 : 7;
}
