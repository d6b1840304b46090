// Which foundation file a node uses and reading it (consensus reference §8); the checks are in
// core/consensus/foundation.ts. Unlike Epic, a configured file that is missing or fails its
// check stops the node instead of being swapped, with a warning, for the built-in one.
import { fileURLToPath } from 'node:url';
import { CHAIN_PARAMS, type ChainType } from '../core/chain_type.js';
import { type FoundationFile, parseFoundationFile } from '../core/consensus/foundation.js';
import { describeFsError, readBounded } from './files.js';

/** Well above the mainnet file (3,040 lines of about 1.8 KB). */
export const FOUNDATION_FILE_LIMIT = 16 * 1024 * 1024;

/** The floonet file, shipped with the node (Epic embeds it in its binary). */
export const SHIPPED_FOUNDATION_FILE = fileURLToPath(
  new URL('../../data/foundation_floonet.jsonl', import.meta.url),
);

/** No usable foundation file: none configured where one is needed, or it cannot be read. */
export class FoundationPathError extends Error {
  /** The path tried; null when there was none. */
  readonly file: string | null;
  readonly problem: string;

  constructor(file: string | null, problem: string) {
    super(file === null ? `foundation file: ${problem}` : `foundation file ${file}: ${problem}`);
    this.name = 'FoundationPathError';
    this.file = file;
    this.problem = problem;
  }
}

/** The configured path, else the shipped floonet file; mainnet's file is not shipped. */
export function foundationFilePath(type: ChainType, configured: string | null): string {
  if (configured !== null) return configured;
  if (type !== 'mainnet') return SHIPPED_FOUNDATION_FILE;
  throw new FoundationPathError(
    null,
    `mainnet needs [server] foundation_path: Epic's debian/foundation.json (SHA-256 ${CHAIN_PARAMS.mainnet.foundationSha256}), which is not shipped with mwnode`,
  );
}

/** The bytes of a foundation file; throws FoundationPathError naming it when unreadable. */
export function readFoundationBytes(path: string): Uint8Array {
  try {
    return readBounded(path, FOUNDATION_FILE_LIMIT);
  } catch (err) {
    throw new FoundationPathError(path, describeFsError(err, FOUNDATION_FILE_LIMIT));
  }
}

/** Reads and checks the foundation file for `type`; throws naming the file when unusable. */
export function loadFoundationFile(type: ChainType, configured: string | null): FoundationFile {
  const path = foundationFilePath(type, configured);
  return parseFoundationFile(readFoundationBytes(path), type, path);
}
