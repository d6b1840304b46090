// `mwnode foundation verify FILE`: checks every line of a foundation file cryptographically.
// Parsing, the point checks and the levy amounts run here (core/consensus/foundation_check.ts);
// range proofs and kernel signatures run batched in the worker pool, a chunk of lines at a
// time so a progress bar can follow them. Prints one line per failing line, the levy summary
// and `N passed, M failed`; exit 0 only when no line failed.
import { readFoundationBytes } from '../config/foundation.js';
import { foundationLineBytes } from '../core/consensus/foundation.js';
import {
  checkLineLocally,
  knownLevyTable,
  type LevyTable,
  LINE_FAILURES,
  type LocalCheck,
  lineLevy,
} from '../core/consensus/foundation_check.js';
import { foundationReport, type LineVerdict } from '../core/consensus/foundation_report.js';
import type { CbData } from '../core/serde/cbdata.js';
import { type Verdict, verifyKernels, verifyRangeProofs } from '../jobs/verify.js';
import { chunkRanges } from '../runtime/job.js';
import { WorkPool } from '../runtime/workpool.js';
import { type Progress, progressBar } from './progress_bar.js';

/** A foundation file with no line at all: nothing to verify is not a pass. */
export class EmptyFoundationFileError extends Error {
  constructor(path: string) {
    super(`foundation file ${path}: holds no lines`);
    this.name = 'EmptyFoundationFileError';
  }
}

/**
 * Lines per chunk: 32 range proofs (~1 ms each) and 32 signatures make one pool job of each
 * kind, short enough for the bar to move smoothly and long enough that the per-job overhead
 * stays small.
 */
const CHUNK_LINES = 32;
/** Chunks in flight per worker: one running, one queued, so no worker waits on this thread. */
const CHUNKS_PER_WORKER = 2;

/** The lines of a chunk whose proof (or signature) is worth verifying, with their positions. */
type Checkable = readonly (readonly [number, CbData])[];

function checkable(checks: readonly LocalCheck[], ok: (c: LocalCheck) => boolean): Checkable {
  return checks.flatMap((c, i) => (c.data !== null && ok(c) ? [[i, c.data] as const] : []));
}

function noteFailures(
  into: string[][],
  lines: Checkable,
  verdicts: readonly Verdict[],
  failure: string,
): void {
  lines.forEach(([i], k) => {
    if (verdicts[k] !== null) into[i]?.push(failure);
  });
}

/** The pool's failures for one chunk of lines, one list per line. */
async function verifyChunk(pool: WorkPool, checks: readonly LocalCheck[]): Promise<string[][]> {
  const proofs = checkable(checks, (c) => c.proofCheckable);
  const kernels = checkable(checks, (c) => c.signatureCheckable);
  const outputs = proofs.map(([, line]) => line.output);
  const signed = kernels.map(([, line]) => line.kernel);
  const [proofVerdicts, kernelVerdicts] = await Promise.all([
    outputs.length === 0 ? [] : verifyRangeProofs(pool, outputs),
    signed.length === 0 ? [] : verifyKernels(pool, signed),
  ]);
  const failures = checks.map((): string[] => []);
  noteFailures(failures, proofs, proofVerdicts, LINE_FAILURES.rangeProof);
  noteFailures(failures, kernels, kernelVerdicts, LINE_FAILURES.signature);
  return failures;
}

/** Checks one chunk of lines: parsing and points here, proofs and signatures in the pool. */
async function verifyLines(
  pool: WorkPool,
  lines: readonly Uint8Array[],
  levies: LevyTable,
): Promise<LineVerdict[]> {
  const checks = lines.map(checkLineLocally);
  const pooled = await verifyChunk(pool, checks);
  return checks.map((c, i) => {
    const failures = [...c.failures, ...(pooled[i] ?? [])];
    const levy = c.data !== null && failures.length === 0 ? lineLevy(c.data, levies) : null;
    return { failures, levy };
  });
}

/**
 * Every line's verdict, a few chunks in flight at a time: this thread parses the next chunk
 * while the workers verify the last one.
 */
async function verifyAll(
  pool: WorkPool,
  lines: readonly Uint8Array[],
  progress: Progress,
): Promise<LineVerdict[]> {
  const levies = knownLevyTable();
  const ranges = chunkRanges(lines.length, CHUNK_LINES);
  const verdicts: LineVerdict[] = new Array(lines.length);
  let next = 0;
  const runner = async (): Promise<void> => {
    for (let r = ranges[next++]; r !== undefined; r = ranges[next++]) {
      const [start, end] = r;
      const part = await verifyLines(pool, lines.slice(start, end), levies);
      part.forEach((v, k) => {
        verdicts[start + k] = v;
      });
      progress.advance(end - start);
    }
  };
  await Promise.all(Array.from({ length: pool.threads * CHUNKS_PER_WORKER }, runner));
  return verdicts;
}

/** Runs the command; resolves with its exit code. */
export async function verifyFoundationFile(path: string): Promise<number> {
  const lines = foundationLineBytes(readFoundationBytes(path));
  if (lines.length === 0) throw new EmptyFoundationFileError(path);
  const pool = new WorkPool();
  const progress = progressBar(process.stderr, lines.length, 'lines');
  let verdicts: LineVerdict[];
  try {
    verdicts = await verifyAll(pool, lines, progress);
  } finally {
    progress.done();
    await pool.close();
  }
  process.stdout.write(`${foundationReport(verdicts).join('\n')}\n`);
  return verdicts.every((v) => v.failures.length === 0) ? 0 : 1;
}
