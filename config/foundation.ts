// Which foundation file a node uses and reading it (consensus reference §8); the checks are in
// core/consensus/foundation.ts. As in Epic, the file's SHA-256 is checked only when the file
// exists: a configured path that does not exist falls back, with a warning, to the built-in
// file — the shipped floonet copy, or for mainnet none (Epic's is not shipped), in which case
// the node runs and refuses blocks and templates at foundation heights. A file that exists but
// cannot be read or fails its check stops the node.
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ChainType } from '../core/chain_type.js';
import {
  describeAbsence,
  type FoundationAbsence,
  type FoundationFile,
  type FoundationSource,
  parseFoundationFile,
} from '../core/consensus/foundation.js';
import { foundationInterval } from '../core/consensus/rewards.js';
import { describeFsError, readBounded } from './files.js';

/** Well above the mainnet file (3,040 lines of about 1.8 KB). */
export const FOUNDATION_FILE_LIMIT = 16 * 1024 * 1024;

/** The floonet file, shipped with the node (Epic embeds it in its binary). */
export const SHIPPED_FOUNDATION_FILE = fileURLToPath(
  new URL('../../data/foundation_floonet.jsonl', import.meta.url),
);

/** A foundation file that exists but cannot be read. */
export class FoundationPathError extends Error {
  readonly file: string;
  readonly problem: string;

  constructor(file: string, problem: string) {
    super(`foundation file ${file}: ${problem}`);
    this.name = 'FoundationPathError';
    this.file = file;
    this.problem = problem;
  }
}

/** The configured path, else the built-in file: the shipped floonet copy; none for mainnet. */
export function foundationFilePath(type: ChainType, configured: string | null): string | null {
  if (configured !== null) return configured;
  return type === 'mainnet' ? null : SHIPPED_FOUNDATION_FILE;
}

/** The bytes of a foundation file; throws FoundationPathError naming it when unreadable. */
export function readFoundationBytes(path: string): Uint8Array {
  try {
    return readBounded(path, FOUNDATION_FILE_LIMIT);
  } catch (err) {
    throw new FoundationPathError(path, describeFsError(err, FOUNDATION_FILE_LIMIT));
  }
}

/** Reads and checks the foundation file at `path` for `type`; throws naming the file. */
export function loadFoundationFile(type: ChainType, path: string): FoundationFile {
  return parseFoundationFile(readFoundationBytes(path), type, path);
}

/** A start-up warning, as one structured log line (event and fields). */
export interface FoundationWarning {
  readonly event: 'foundation_missing' | 'foundation_fallback';
  readonly fields: Readonly<Record<string, string | null>>;
}

export interface OpenedFoundation {
  readonly source: FoundationSource;
  /** To log once at start-up; null when the file asked for is the one in use. */
  readonly warning: FoundationWarning | null;
}

function missingWarning(missing: FoundationAbsence): FoundationWarning {
  const f = foundationInterval(missing.chainType);
  return {
    event: 'foundation_missing',
    fields: {
      foundation_path: missing.configured,
      message: `blocks at foundation heights (every ${f}th) cannot be validated or built without ${describeAbsence(missing)}`,
    },
  };
}

function fallbackWarning(configured: string): FoundationWarning {
  return {
    event: 'foundation_fallback',
    fields: {
      foundation_path: configured,
      message: `foundation file ${configured} does not exist; using the shipped ${SHIPPED_FOUNDATION_FILE}`,
    },
  };
}

/** Nothing at `path`; any other stat failure is left for the read to report. */
function absent(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false }) === undefined;
  } catch {
    return false;
  }
}

/** Opens the configured or built-in file the way Epic picks it (see the header). */
export function openFoundationFile(type: ChainType, configured: string | null): OpenedFoundation {
  if (configured !== null && !absent(configured)) {
    return { source: { file: loadFoundationFile(type, configured), missing: null }, warning: null };
  }
  if (type === 'mainnet') {
    const missing = { chainType: type, configured };
    return { source: { file: null, missing }, warning: missingWarning(missing) };
  }
  const file = loadFoundationFile(type, SHIPPED_FOUNDATION_FILE);
  const warning = configured === null ? null : fallbackWarning(configured);
  return { source: { file, missing: null }, warning };
}
