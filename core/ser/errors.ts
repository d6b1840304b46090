// The one error type every binary decoder throws. `kind` mirrors Epic's `ser::Error` variants
// so callers (and later the peers' ban logic) can tell corruption from truncation from abuse.

export type SerErrorKind =
  | 'IOErr' // input ended early
  | 'UnexpectedData' // bytes left over after a complete value
  | 'CorruptedData' // a value that is structurally invalid
  | 'CountError' // fewer elements than announced
  | 'TooLargeReadErr' // a length or count over its cap
  | 'SortError'
  | 'DuplicateError'
  | 'InvalidBlockVersion'
  | 'HexError';

const EPIC_MESSAGES: Partial<Record<SerErrorKind, string>> = {
  InvalidBlockVersion: 'invalid block version(YOU NEED UPDATE YOUR NODE)!',
};

export class SerError extends Error {
  readonly kind: SerErrorKind;
  /** What exactly was wrong, naming the field. */
  readonly detail: string;

  constructor(kind: SerErrorKind, detail: string) {
    super(`${EPIC_MESSAGES[kind] ?? kind}: ${detail}`);
    this.name = 'SerError';
    this.kind = kind;
    this.detail = detail;
  }
}
