// The checks of `mwnode foundation verify` that need no worker: a line parses as a coinbase
// bundle, both features are Coinbase, the output commitment and the kernel excess are points,
// and which levy amount the output holds. The range proof and the kernel signature are checked
// in the worker pool (jobs/verify.ts); the reasons for those failures are named here too, so
// every reason text the command prints lives in one table.
import { toHex } from '../bytes.js';
import { CHAIN_TYPES } from '../chain_type.js';
import { CommitError, commitValue, parseCommitment, sumCommits } from '../crypto/commit.js';
import { JsonError, parseJson } from '../json/parse.js';
import { type CbData, cbDataFromJson } from '../serde/cbdata.js';
import { JsonFormError } from '../serde/fields.js';
import { FLOONET_FILE_LINE_VALUE } from './foundation.js';
import { foundationPayoutAmounts } from './rewards.js';

/** Why a line fails; stable texts, listed in docs/decisions.md. */
export const LINE_FAILURES = {
  notUtf8: 'not valid UTF-8',
  empty: 'empty line',
  notJson: 'not valid JSON',
  notCoinbaseData: 'not a coinbase output and kernel',
  outputNotCoinbase: 'output features are not Coinbase',
  kernelNotCoinbase: 'kernel features are not Coinbase',
  commitNotPoint: 'output commitment is not a point',
  excessNotPoint: 'kernel excess is not a point',
  rangeProof: 'range proof does not verify',
  signature: 'kernel signature does not verify',
} as const;

/** One line after the checks done here. */
export interface LocalCheck {
  /** The parsed line; null when it did not parse. */
  readonly data: CbData | null;
  /** Failures found so far, in LINE_FAILURES texts (a parse failure carries its detail). */
  readonly failures: readonly string[];
  /** The range proof is worth verifying: the commitment is a point. */
  readonly proofCheckable: boolean;
  /** The signature is worth verifying: the excess is a point. */
  readonly signatureCheckable: boolean;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function parseFailure(bytes: Uint8Array): { data: CbData } | { failure: string } {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { failure: LINE_FAILURES.notUtf8 };
  }
  let json: unknown;
  try {
    json = parseJson(text);
  } catch (e) {
    if (!(e instanceof JsonError)) throw e;
    // The parser counts lines of its text; here the text is one line of the file.
    const where = e.message.replace(/ at line \d+ column (\d+)$/, ' at column $1');
    return { failure: `${LINE_FAILURES.notJson}: ${where}` };
  }
  try {
    // Unknown keys are ignored, as Epic's serde does: the older files' kernels also carry
    // `"fee":"0","lock_height":"0"`, which no reader uses.
    return { data: cbDataFromJson(json, '') };
  } catch (e) {
    if (!(e instanceof JsonFormError)) throw e;
    return { failure: `${LINE_FAILURES.notCoinbaseData}: ${e.message}` };
  }
}

function isPoint(commitment: Uint8Array): boolean {
  try {
    parseCommitment(commitment);
    return true;
  } catch (e) {
    if (e instanceof CommitError) return false;
    throw e;
  }
}

/** Parses one line (its bytes, without the line feed) and runs the checks that need no pool. */
export function checkLineLocally(bytes: Uint8Array): LocalCheck {
  const parsed = bytes.length === 0 ? { failure: LINE_FAILURES.empty } : parseFailure(bytes);
  if ('failure' in parsed)
    return {
      data: null,
      failures: [parsed.failure],
      proofCheckable: false,
      signatureCheckable: false,
    };
  const { output, kernel } = parsed.data;
  const proofCheckable = isPoint(output.commit);
  const signatureCheckable = isPoint(kernel.excess);
  const checks: readonly [boolean, string][] = [
    [output.features === 'Coinbase', LINE_FAILURES.outputNotCoinbase],
    [kernel.features.kind === 'Coinbase', LINE_FAILURES.kernelNotCoinbase],
    [proofCheckable, LINE_FAILURES.commitNotPoint],
    [signatureCheckable, LINE_FAILURES.excessNotPoint],
  ];
  return {
    data: parsed.data,
    failures: checks.filter(([ok]) => !ok).map(([, failure]) => failure),
    proofCheckable,
    signatureCheckable,
  };
}

/** v·H (hex) → v for every amount a foundation output can hold, on any chain. */
export type LevyTable = ReadonlyMap<string, bigint>;

/**
 * The payouts of every chain type, and the floonet file's 710,400,000 (which is automated
 * testing's first payout, so it is already among them).
 */
export function knownLevyTable(): LevyTable {
  const amounts = new Set([
    FLOONET_FILE_LINE_VALUE,
    ...CHAIN_TYPES.flatMap(foundationPayoutAmounts),
  ]);
  return new Map([...amounts].map((v) => [toHex(commitValue(v)), v]));
}

/** The known levy amount v with C − X = v·H, or null when the line holds none of them. */
export function lineLevy(line: CbData, table: LevyTable): bigint | null {
  try {
    return table.get(toHex(sumCommits([line.output.commit], [line.kernel.excess]))) ?? null;
  } catch (e) {
    // C = X: the output holds nothing (or the sum is not computable), never a levy.
    if (e instanceof CommitError) return null;
    throw e;
  }
}
