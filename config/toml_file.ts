// What the node's and the wallet's TOML files share: reading one with a size bound, parsing it
// into a table with line-and-column errors, checking its `chain_type` against the network chosen
// on the command line, and writing a new file without overwriting one a user already has.
import { dirname } from 'node:path';
import { parse, TomlError, type TomlTable } from 'smol-toml';
import { CHAIN_TYPES, type ChainType } from '../core/chain_type.js';
import { CHAIN_TYPE_NAMES, chainTypeFromName } from './defaults.js';
import { ConfigError } from './errors.js';
import { listWords, quoteValue, TableReader } from './fields.js';
import { createFileAtomic, describeFsError, isFsError, readBounded } from './files.js';

/** A config file is a few KiB; the cap only stops a wrong path from eating memory. */
export const CONFIG_FILE_LIMIT = 1024 * 1024;

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The text of a config file of at most CONFIG_FILE_LIMIT bytes of UTF-8. */
export function readConfigText(file: string): string {
  let bytes: Buffer;
  try {
    bytes = readBounded(file, CONFIG_FILE_LIMIT);
  } catch (err) {
    throw new ConfigError(file, null, describeFsError(err, CONFIG_FILE_LIMIT));
  }
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new ConfigError(file, null, 'not valid UTF-8');
  }
}

function parseTomlText(text: string, file: string): TomlTable {
  try {
    return parse(text, { integersAsBigInt: true, unsafeKeyBehaviour: 'drop' });
  } catch (err) {
    if (!(err instanceof TomlError)) throw err;
    const reason = err.message.split('\n')[0]?.replace(/^Invalid TOML document: /, '');
    throw new ConfigError(
      file,
      null,
      `invalid TOML at line ${err.line}, column ${err.column}: ${reason}`,
    );
  }
}

/**
 * Parses TOML text into a reader of its top-level table, whose relative paths are taken from
 * the file's directory. A syntax error becomes a ConfigError naming the line and column, and so
 * does a missing `[section]`: without that check a misspelt one would silently run on defaults.
 */
export function parseConfigRoot(text: string, file: string, section: string): TableReader {
  const doc = parseTomlText(text, file);
  if (!Object.hasOwn(doc, section))
    throw new ConfigError(file, null, `missing the [${section}] table`);
  return new TableReader(file, '', doc, dirname(file));
}

/**
 * The table's `chain_type` (Epic's names), which must be the chain selected on the command
 * line; `selected` when the key is absent. `hint`, if given, is appended to the mismatch error.
 */
export function readChainTypeKey(
  t: TableReader,
  selected: ChainType,
  hint?: (chain: ChainType) => string,
): ChainType {
  const name = t.optionalString('chain_type');
  if (name === null) return selected;
  const chain = chainTypeFromName(name);
  if (chain === null) {
    const names = CHAIN_TYPES.map((c) => CHAIN_TYPE_NAMES[c]);
    t.fail('chain_type', `unknown chain type ${quoteValue(name)} (expected ${listWords(names)})`);
  }
  if (chain !== selected) {
    const advice = hint === undefined ? '' : `; ${hint(chain)}`;
    t.fail(
      'chain_type',
      `${name} does not match the network selected on the command line (${CHAIN_TYPE_NAMES[selected]})${advice}`,
    );
  }
  return chain;
}

/** Writes `text` as a new config file; false (and nothing written) when `file` exists. */
export function createConfigFile(file: string, text: string): boolean {
  try {
    return createFileAtomic(file, text, 0o644);
  } catch (err) {
    const reason =
      isFsError(err) && err.code === 'ENOENT'
        ? 'its directory does not exist'
        : describeFsError(err);
    throw new ConfigError(file, null, `cannot be written (${reason})`);
  }
}
