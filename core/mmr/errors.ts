// The one error type the MMR code throws for misuse or an inconsistent store, with a kind a
// caller can switch on (Epic returns free-form strings or panics for all of these).

export type MmrErrorKind =
  | 'NotALeaf' // a leaf operation on a parent position
  | 'NoElement' // proof or data asked for a leaf that is spent, compacted or beyond the size
  | 'NotPrunable' // prune or compact on an MMR that keeps every leaf (kernels, headers)
  | 'BadRewind' // rewind beyond the current size
  | 'BadCutoff' // compaction cutoff beyond the current size
  | 'InvalidSize' // a store whose size no MMR can have
  | 'MissingNode' // a hash the operation needs is not in the store (compacted too far)
  | 'InvalidParent' // validate(): a parent hash does not match its children
  | 'TooLarge'; // a position or size beyond what this implementation stores

export class MmrError extends Error {
  readonly kind: MmrErrorKind;
  readonly detail: string;

  constructor(kind: MmrErrorKind, detail: string) {
    super(`${kind}: ${detail}`);
    this.name = 'MmrError';
    this.kind = kind;
    this.detail = detail;
  }
}
