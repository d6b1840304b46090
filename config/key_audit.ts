// What a config file holds that mwnode does not use, found once the file is read: keys nobody
// asked for (TableReader remembers what it was asked). A key of Epic's that mwnode does not
// implement (Tor, webhooks, the TUI…) is named as such; any other is unknown, most likely
// misspelt, and is named with the closest key that table knows. Both are ignored, as Epic
// ignores unknown keys, but said, with the file and line, instead of silently.
import type { TableReader } from './fields.js';

export interface KeyNotice {
  readonly file: string;
  /** The dotted key, e.g. `server.p2p_config.seedz`. */
  readonly key: string;
  /** 1-based line of the key (or of its `[table]` header); null when not found in the text. */
  readonly line: number | null;
  /** `unimplemented`: Epic's key, not implemented by mwnode; `unknown`: nobody's key. */
  readonly kind: 'unimplemented' | 'unknown';
  /** For an unknown key: the known key of the same table it most resembles, if any is close. */
  readonly closest: string | null;
}

/** Epic's keys mwnode reads nowhere, per table (dotted path; '' is the file's top level). */
export type EpicOnlyKeys = ReadonlyMap<string, ReadonlySet<string>>;

/** Levenshtein distance, small strings only (config keys). */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row.push(
        Math.min(
          (prev[j] as number) + 1,
          (row[j - 1] as number) + 1,
          (prev[j - 1] as number) + cost,
        ),
      );
    }
    prev = row;
  }
  return prev[b.length] as number;
}

/** The candidate nearest to `key`, when near enough to be a likely misspelling. */
export function closestKey(key: string, candidates: Iterable<string>): string | null {
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const c of candidates) {
    const d = distance(key, c);
    if (d < bestDistance || (d === bestDistance && best !== null && c < best)) {
      best = c;
      bestDistance = d;
    }
  }
  // A third of the key's length, at least 2: "seedz" → "seeds", not "port" → "host".
  return best !== null && bestDistance <= Math.max(2, Math.floor(key.length / 3)) ? best : null;
}

const HEADER = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/;

function unquote(path: string): string {
  return path
    .split('.')
    .map((p) => p.trim().replace(/^"(.*)"$/, '$1'))
    .join('.');
}

/** The line of `key` in table `table` of `text`, or of its own `[table.key]` header. */
export function lineOf(text: string, table: string, key: string): number | null {
  const full = table === '' ? key : `${table}.${key}`;
  const assignment = new RegExp(`^\\s*"?${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"?\\s*=`);
  const lines = text.split('\n');
  let current = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const header = HEADER.exec(line);
    if (header !== null) {
      current = unquote(header[1] as string);
      if (current === full) return i + 1;
    } else if (current === table && assignment.test(line)) return i + 1;
  }
  return null;
}

/** Every key of `root`'s file that no reader asked for, in reading order. */
export function auditKeys(root: TableReader, text: string, epicOnly: EpicOnlyKeys): KeyNotice[] {
  const notices: KeyNotice[] = [];
  const visit = (r: TableReader): void => {
    const epic = epicOnly.get(r.prefix) ?? new Set<string>();
    for (const key of r.unasked()) {
      const unimplemented = epic.has(key);
      notices.push({
        file: r.file,
        key: r.prefix === '' ? key : `${r.prefix}.${key}`,
        line: lineOf(text, r.prefix, key),
        kind: unimplemented ? 'unimplemented' : 'unknown',
        closest: unimplemented ? null : closestKey(key, [...r.asked, ...epic]),
      });
    }
    for (const child of r.children) visit(child);
  };
  visit(root);
  return notices;
}

/** The notice as one sentence for an operator. */
export function describeNotice(n: KeyNotice): string {
  const where = n.line === null ? n.file : `${n.file} line ${n.line}`;
  if (n.kind === 'unimplemented')
    return `${where}: ${n.key} is Epic's, but mwnode does not implement it: ignored`;
  const hint = n.closest === null ? '' : ` (did you mean ${n.closest}?)`;
  return `${where}: unknown key ${n.key}${hint}: ignored`;
}
