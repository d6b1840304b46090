// Errors of the framing layer. Body contents fail with the shared SerError (core/ser/errors.ts);
// a P2pError means the frame itself cannot be accepted, so the connection must end.

export type P2pErrorKind =
  | 'BadMagic' // the first two bytes are not this chain's magic
  | 'TooLarge' // msg_len over the type's enforced cap (type 0 with any body included)
  | 'AttachmentTooLarge' // an attachment longer than the reader allows
  | 'UnknownType'; // a codec was asked for a type code Epic 4.0 does not define

export class P2pError extends Error {
  readonly kind: P2pErrorKind;
  readonly detail: string;

  constructor(kind: P2pErrorKind, detail: string) {
    super(`${kind}: ${detail}`);
    this.name = 'P2pError';
    this.kind = kind;
    this.detail = detail;
  }
}
