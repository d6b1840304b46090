// A short history of runs inside a bench's results file: on a shared machine one run says
// little, so each run is appended (with its date) to the runs the previous file recorded, and
// the file carries notes on what was measured. Used around harness.saveResults.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { JsonValue } from '../../core/json/value.js';

const KEPT = 6;

type Doc = { [k: string]: JsonValue };

function resultsFile(bench: string): string {
  return fileURLToPath(new URL(`../../../bench/results/${bench}.json`, import.meta.url));
}

function read(file: string): Doc | null {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Doc) : null;
}

function entry(doc: Doc): JsonValue {
  return { date: doc.date ?? null, results: doc.results ?? null, ratios: doc.ratios ?? null };
}

/** The runs recorded so far (the last one included); call before saveResults overwrites them. */
export function earlierRuns(bench: string): JsonValue[] {
  const doc = read(resultsFile(bench));
  if (doc === null) return [];
  return Array.isArray(doc.history) ? doc.history : [entry(doc)];
}

/** Adds `notes` and the history (this run last) to the file saveResults just wrote. */
export function annotateResults(
  bench: string,
  earlier: readonly JsonValue[],
  notes: readonly string[],
): void {
  const file = resultsFile(bench);
  const doc = read(file);
  if (doc === null) return;
  doc.notes = [...notes];
  doc.history = [...earlier, entry(doc)].slice(-KEPT);
  writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
}
