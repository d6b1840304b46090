// The one error type of the txhashset codecs. An archive comes from a peer, so every way it can
// be wrong gets its own code: the sync logic decides from the code whether to retry elsewhere,
// and tests can assert the exact reason instead of matching message text.

export type TxHashSetErrorCode =
  // zip container
  | 'ZipTruncated' // the end record, central directory or an entry runs past the input
  | 'ZipMalformed' // a bad signature, an inconsistent count or size, trailing garbage
  | 'ZipTooManyEntries' // more entries than the reader allows
  | 'ZipUnsafeName' // absolute, `..`, backslash, NUL or empty path component
  | 'ZipNameNotAllowed' // a name outside the allow-list
  | 'ZipDuplicateName'
  | 'ZipTooLarge' // an entry (or the sum of entries) over its cap
  | 'ZipCompressed' // any method but Stored (0)
  | 'ZipUnsupported' // encryption, data descriptors, zip64, multi-disk
  | 'ZipBadCrc'
  | 'ZipBadOffset' // an entry outside the data area or overlapping another one
  // roaring bitmaps
  | 'RoaringMalformed'
  // MMR files
  | 'FileLength' // a file whose length is not a whole number of elements
  | 'FileCount' // hash or data counts that disagree with the MMR size or prune list
  | 'BadElement' // an element that does not decode
  | 'BadLeafSet' // a leaf set holding parents, compacted leaves or positions out of range
  | 'BadPruneList' // prune roots out of range or nested
  // archive and validation
  | 'MissingEntry' // a required file is absent from the archive
  | 'SizeMismatch' // an MMR smaller than the header says, or output/rangeproof sizes differ
  | 'InvalidParent' // a stored parent hash differs from the hash of its children
  | 'RootMismatch' // an MMR root differs from the header's
  | 'KernelHistory'; // the kernel root at some earlier header differs from that header's

export class TxHashSetError extends Error {
  readonly code: TxHashSetErrorCode;
  readonly detail: string;

  constructor(code: TxHashSetErrorCode, detail: string) {
    super(`${code}: ${detail}`);
    this.name = 'TxHashSetError';
    this.code = code;
    this.detail = detail;
  }
}
