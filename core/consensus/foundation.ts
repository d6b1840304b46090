// Epic's foundation file (consensus reference §8): JSON lines, line k holding the coinbase
// output and kernel that pay the foundation at height (k + 1) × F. Pure: the bytes are read by
// config/foundation.ts. Where Epic panics (height 0, past the end, a bad line) we throw typed
// errors instead.
import { sha256 } from '@noble/hashes/sha2.js';
import { toHex } from '../bytes.js';
import { CHAIN_PARAMS, type ChainType } from '../chain_type.js';
import { commitValue, verifyCommitSum } from '../crypto/commit.js';
import { parseJson } from '../json/parse.js';
import { type CbData, cbDataFromJson } from '../serde/cbdata.js';
import { foundationInterval, foundationPayout } from './rewards.js';

const LF = 0x0a;
const CR = 0x0d;

export interface FoundationFile {
  /** Where the bytes came from, for messages. */
  readonly name: string;
  readonly chainType: ChainType;
  /** Line k pays the foundation at height (k + 1) × F. */
  readonly lines: readonly CbData[];
}

export type FoundationFileProblem =
  | { readonly kind: 'hash'; readonly expected: string; readonly actual: string }
  | {
      readonly kind: 'short';
      readonly lines: number;
      readonly needed: number;
      readonly upTo: bigint;
    }
  | { readonly kind: 'line'; readonly line: number; readonly detail: string };

function describeProblem(p: FoundationFileProblem): string {
  switch (p.kind) {
    case 'hash':
      return `SHA-256 (CRLF→LF) is ${p.actual}, expected ${p.expected}`;
    case 'short':
      return `holds ${p.lines} lines, needs ${p.needed} to cover foundation heights up to ${p.upTo}`;
    case 'line':
      return `line ${p.line}: ${p.detail}`;
  }
}

/** A foundation file the node must not pay from or check blocks against. */
export class FoundationFileError extends Error {
  readonly file: string;
  readonly problems: readonly FoundationFileProblem[];

  constructor(file: string, problems: readonly FoundationFileProblem[]) {
    super(`foundation file ${file}: ${problems.map(describeProblem).join('; ')}`);
    this.name = 'FoundationFileError';
    this.file = file;
    this.problems = problems;
  }
}

export type FoundationIndexProblem = 'before-first' | 'not-a-payout-height' | 'past-end';

/** A height with no line in the foundation file. */
export class FoundationIndexError extends Error {
  readonly height: bigint;
  readonly kind: FoundationIndexProblem;

  constructor(height: bigint, kind: FoundationIndexProblem, message: string) {
    super(message);
    this.name = 'FoundationIndexError';
    this.height = height;
    this.kind = kind;
  }
}

/** Epic's name for the foundation file of each chain (its `debian/` directory). */
export const EPIC_FOUNDATION_FILE_NAME: Readonly<Record<ChainType, string>> = {
  mainnet: 'foundation.json',
  floonet: 'foundation_floonet.json',
  usernet: 'foundation_floonet.json',
  automated: 'foundation_floonet.json',
};

/** Why a node runs without its chain's foundation file (Epic's mainnet file is not shipped). */
export interface FoundationAbsence {
  readonly chainType: ChainType;
  /** `[server] foundation_path` as configured (a file that does not exist); null when unset. */
  readonly configured: string | null;
}

/** The foundation file a chain validates and builds with, or why there is none. */
export type FoundationSource =
  | { readonly file: FoundationFile; readonly missing: null }
  | { readonly file: null; readonly missing: FoundationAbsence };

/** The missing file in words: Epic's name, its pinned hash, and what was configured. */
export function describeAbsence(a: FoundationAbsence): string {
  const sha = CHAIN_PARAMS[a.chainType].foundationSha256;
  const config =
    a.configured === null
      ? '[server] foundation_path is not set'
      : `[server] foundation_path ${a.configured} does not exist`;
  return `Epic's ${EPIC_FOUNDATION_FILE_NAME[a.chainType]} (SHA-256 ${sha}); ${config}`;
}

/** What needs the foundation line: a block to validate or a block (template) to build. */
export type FoundationUse = 'validate a block' | 'build a block template';

/** A block or template at a foundation height while the node runs without the file. */
export class FoundationMissingError extends Error {
  /** Crosses the actor boundary as the reply's error code. */
  readonly code = 'FoundationMissing';
  readonly height: bigint;
  readonly absence: FoundationAbsence;

  constructor(absence: FoundationAbsence, height: bigint, use: FoundationUse) {
    super(
      `no foundation file: cannot ${use} at foundation height ${height} without ${describeAbsence(absence)}`,
    );
    this.name = 'FoundationMissingError';
    this.height = height;
    this.absence = absence;
  }
}

/** The file to use at foundation height `height`; throws FoundationMissingError when none. */
export function foundationFileFor(
  source: FoundationSource,
  height: bigint,
  use: FoundationUse,
): FoundationFile {
  if (source.file === null) throw new FoundationMissingError(source.missing, height, use);
  return source.file;
}

/** CRLF → LF, as Epic does before hashing, so a copy checked out on Windows still passes. */
export function normalizeLineEnds(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (!(bytes[i] === CR && bytes[i + 1] === LF)) out[n++] = bytes[i] as number;
  }
  return n === bytes.length ? bytes : out.subarray(0, n);
}

/** The hex SHA-256 Epic compares against the chain's constant (after CRLF → LF). */
export function foundationFileSha256(bytes: Uint8Array): string {
  return toHex(sha256(normalizeLineEnds(bytes)));
}

/** Lines of the floonet file, which usernet and automated testing pay from too. */
export const FLOONET_FOUNDATION_LINES = 500;

/**
 * Lines a foundation file must hold to be accepted. The other chains pay from the floonet file,
 * whose pinned hash names 500 lines; payouts past 500 × F find no line (where Epic panics).
 * Mainnet: no count. Epic never counts, its file shipped partial in earlier releases, and the
 * pinned hash already fixes the content; a payout past its end is a typed error.
 */
export function requiredFoundationLines(type: ChainType): number {
  return type === 'mainnet' ? 0 : FLOONET_FOUNDATION_LINES;
}

/** Height paid from line `index` (0-based). */
export function foundationHeightOfLine(type: ChainType, index: number): bigint {
  return (BigInt(index) + 1n) * foundationInterval(type);
}

// Lines as Rust's `str::lines` yields them: split at LF, no empty line after a final LF.
function splitLines(bytes: Uint8Array): Uint8Array[] {
  const lines: Uint8Array[] = [];
  let start = 0;
  for (let i = bytes.indexOf(LF); i >= 0; i = bytes.indexOf(LF, start)) {
    lines.push(bytes.subarray(start, i));
    start = i + 1;
  }
  if (start < bytes.length) lines.push(bytes.subarray(start));
  return lines;
}

function integrityProblems(
  type: ChainType,
  normalized: Uint8Array,
  lineCount: number,
): FoundationFileProblem[] {
  const problems: FoundationFileProblem[] = [];
  const expected = CHAIN_PARAMS[type].foundationSha256;
  const actual = toHex(sha256(normalized));
  if (actual !== expected) problems.push({ kind: 'hash', expected, actual });
  const needed = requiredFoundationLines(type);
  if (lineCount < needed) {
    const upTo = foundationHeightOfLine(type, needed - 1);
    problems.push({ kind: 'short', lines: lineCount, needed, upTo });
  }
  return problems;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function parseLine(name: string, bytes: Uint8Array, index: number): CbData {
  try {
    return cbDataFromJson(parseJson(utf8.decode(bytes)), '');
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    throw new FoundationFileError(name, [{ kind: 'line', line: index + 1, detail }]);
  }
}

/** The lines of a foundation file as Epic reads them (CRLF → LF first), without line feeds. */
export function foundationLineBytes(bytes: Uint8Array): Uint8Array[] {
  return splitLines(normalizeLineEnds(bytes));
}

/** Every line of a foundation file as CbData, without the integrity checks. */
export function parseFoundationLines(bytes: Uint8Array, name: string): CbData[] {
  return foundationLineBytes(bytes).map((line, k) => parseLine(name, line, k));
}

/**
 * Checks a foundation file for `type` (SHA-256 against the chain's constant, then line count)
 * and parses every line. `name` (usually the path) is what error messages call the file.
 */
export function parseFoundationFile(
  bytes: Uint8Array,
  type: ChainType,
  name: string,
): FoundationFile {
  const normalized = normalizeLineEnds(bytes);
  const raw = splitLines(normalized);
  const problems = integrityProblems(type, normalized, raw.length);
  if (problems.length > 0) throw new FoundationFileError(name, problems);
  return { name, chainType: type, lines: raw.map((line, k) => parseLine(name, line, k)) };
}

/** Epic's `foundation_index`: h div F − 1. Heights below F have no line (Epic panics on 0). */
export function foundationIndex(type: ChainType, height: bigint): bigint {
  const f = foundationInterval(type);
  if (height < f) {
    throw new FoundationIndexError(
      height,
      'before-first',
      `height ${height} has no foundation line: the first pays at height ${f}`,
    );
  }
  return height / f - 1n;
}

/** Last height `file` has a line for. */
export function lastFoundationHeight(file: FoundationFile): bigint {
  return BigInt(file.lines.length) * foundationInterval(file.chainType);
}

/** The line paying the foundation at `height`, a multiple of F within the file. */
export function foundationLine(file: FoundationFile, height: bigint): CbData {
  const index = foundationIndex(file.chainType, height);
  const f = foundationInterval(file.chainType);
  if (height % f !== 0n) {
    throw new FoundationIndexError(
      height,
      'not-a-payout-height',
      `height ${height} is not a multiple of ${f}: no foundation line pays there`,
    );
  }
  const line = index < BigInt(file.lines.length) ? file.lines[Number(index)] : undefined;
  if (line === undefined) {
    throw new FoundationIndexError(
      height,
      'past-end',
      `height ${height} needs line ${index + 1n} of foundation file ${file.name}, which holds ${file.lines.length} lines (up to height ${lastFoundationHeight(file)})`,
    );
  }
  return line;
}

/**
 * Every line of the floonet file carries 710,400,000 freemen: automated testing's payout (5
 * blocks of 142,080,000), not the 1,440-block payout of floonet and usernet. Its pinned
 * SHA-256 fixes this for every copy the node accepts.
 */
export const FLOONET_FILE_LINE_VALUE = 710_400_000n;

/** True when the line's output holds `value`: C − X = value·H (excess X = the blind's point). */
export function foundationLineCarries(line: CbData, value: bigint): boolean {
  if (value <= 0n) return false;
  return verifyCommitSum([line.output.commit], [line.kernel.excess, commitValue(value)]);
}

/** The line paying at `height` holds none of the values a foundation line can hold. */
export class FoundationValueError extends Error {
  readonly height: bigint;

  constructor(file: string, height: bigint, tried: readonly bigint[]) {
    super(
      `foundation file ${file}: the line for height ${height} holds none of ${tried.join(', ')}`,
    );
    this.name = 'FoundationValueError';
    this.height = height;
  }
}

/**
 * What the foundation output at `height` holds. Consensus never reads it (only the commitment
 * is compared), but the coinbase sum counts it: when it is below the payout the levy asks for,
 * the miner's own coinbase must carry the difference (see rewards.ts `minerCoinbaseValue`).
 * A value cannot be read off a commitment, so the two a file can hold are tried: the chain's
 * payout (a file made for it) and the floonet file's 710,400,000.
 */
export function foundationLineValue(file: FoundationFile, height: bigint): bigint {
  const line = foundationLine(file, height);
  const tried = [foundationPayout(file.chainType, height), FLOONET_FILE_LINE_VALUE];
  const value = tried.find((v) => foundationLineCarries(line, v));
  if (value === undefined) throw new FoundationValueError(file.name, height, tried);
  return value;
}
