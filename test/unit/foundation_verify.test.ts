// `mwnode foundation verify FILE` as a user runs it: the real executable, the real worker pool,
// Epic's floonet foundation file and copies of it with single hex digits flipped.
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { RewardParts } from '../../core/chain/block_build.js';
import { deriveKeyId } from '../../core/keychain/identifier.js';
import { kernelToJson, outputToJson } from '../../core/serde/transaction.js';
import { autoCoinbase, makeCoinbase } from '../support/coinbases.js';
import { mwnodeCommand } from '../support/mwnode_command.js';
import { REPO_ROOT } from '../support/paths.js';

const FLOONET_FILE = join(REPO_ROOT, 'data', 'foundation_floonet.jsonl');
const floonetLines = readFileSync(FLOONET_FILE, 'utf8').split('\n').slice(0, -1);
const dir = mkdtempSync(join(tmpdir(), 'mwnode-foundation-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const verify = (file: string) => mwnodeCommand(['foundation', 'verify', file]);

function writeLines(name: string, lines: readonly string[]): string {
  const file = join(dir, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

type Field = readonly ['output' | 'kernel', string];
const COMMIT: Field = ['output', 'commit'];
const PROOF: Field = ['output', 'proof'];
const EXCESS: Field = ['kernel', 'excess'];
const SIGNATURE: Field = ['kernel', 'excess_sig'];

/** Floonet line `line` (1-based) with hex digit `at` of `field` XORed with 1. */
function flipped(line: number, [part, key]: Field, at: number): string {
  const json = JSON.parse(floonetLines[line - 1] as string) as Record<
    string,
    Record<string, string>
  >;
  const hex = json[part]?.[key] as string;
  const digit = (Number.parseInt(hex[at] as string, 16) ^ 1).toString(16);
  (json[part] as Record<string, string>)[key] = `${hex.slice(0, at)}${digit}${hex.slice(at + 1)}`;
  return JSON.stringify(json);
}

function withLines(edits: Readonly<Record<number, string>>): string[] {
  return floonetLines.map((l, i) => edits[i + 1] ?? l);
}

const ALL_PASS = 'levy 710400000 (7.104 EPIC): 500 lines\n500 passed, 0 failed\n';

describe('mwnode foundation verify', () => {
  it("passes every line of Epic's floonet file", async () => {
    assert.deepEqual(await verify(FLOONET_FILE), { code: 0, stdout: ALL_PASS, stderr: '' });
  });

  it('accepts the older kernel JSON carrying "fee" and "lock_height" as strings', async () => {
    const older = floonetLines.map((l) =>
      l.replace(
        '"kernel":{"features":"Coinbase",',
        '"kernel":{"features":"Coinbase","fee":"0","lock_height":"0",',
      ),
    );
    assert.equal(older.filter((l) => l.includes('"lock_height":"0"')).length, 500);
    const file = writeLines('older.jsonl', older);
    assert.deepEqual(await verify(file), { code: 0, stdout: ALL_PASS, stderr: '' });
  });

  it('names the 4 lines with a flipped hex digit in commit, proof, excess and signature', async () => {
    // Digit 3 of line 17's commitment and digit 4 of line 250's excess give x coordinates off
    // the curve; digit 64 of a compact signature is the low byte of s, so s stays below n.
    const file = writeLines(
      'flipped.jsonl',
      withLines({
        17: flipped(17, COMMIT, 3),
        101: flipped(101, PROOF, 200),
        250: flipped(250, EXCESS, 4),
        499: flipped(499, SIGNATURE, 64),
      }),
    );
    assert.deepEqual(await verify(file), {
      code: 1,
      stdout: [
        'line 17: output commitment is not a point',
        'line 101: range proof does not verify',
        'line 250: kernel excess is not a point',
        'line 499: kernel signature does not verify',
        'levy 710400000 (7.104 EPIC): 496 lines',
        '496 passed, 4 failed',
        '',
      ].join('\n'),
      stderr: '',
    });
  });

  it('fails malformed and tampered lines one by one and checks the rest', async () => {
    const plain = JSON.parse(floonetLines[3] as string) as { kernel: { features: unknown } };
    plain.kernel.features = { Plain: { fee: 0 } };
    const noKeyId = JSON.parse(floonetLines[6] as string) as { key_id?: string };
    delete noKeyId.key_id;
    const lines = [
      floonetLines[0] as string,
      (floonetLines[1] as string).slice(0, 40),
      '',
      JSON.stringify(plain),
      // Digit 2 of these two gives another point on the curve: only the proof or the
      // signature can tell.
      flipped(5, COMMIT, 2),
      flipped(6, EXCESS, 2),
      JSON.stringify(noKeyId),
      '[1]',
    ];
    const file = writeLines('malformed.jsonl', lines);
    appendFileSync(file, Uint8Array.of(0x7b, 0xff, 0x7d, 0x0a));
    assert.deepEqual(await verify(file), {
      code: 1,
      stdout: [
        'line 2: not valid JSON: EOF while parsing a string at column 40',
        'line 3: empty line',
        'line 4: kernel features are not Coinbase; kernel signature does not verify',
        'line 5: range proof does not verify',
        'line 6: kernel signature does not verify',
        'line 7: not a coinbase output and kernel: missing field `key_id`',
        'line 8: not a coinbase output and kernel: expected an object',
        'line 9: not valid UTF-8',
        'levy 710400000 (7.104 EPIC): 1 line',
        '1 passed, 8 failed',
        '',
      ].join('\n'),
      stderr: '',
    });
  });

  it('counts the lines per levy amount and lists those holding none', async () => {
    const line = (parts: RewardParts, index: number): string =>
      JSON.stringify({
        output: outputToJson(parts.output),
        kernel: kernelToJson(parts.kernel),
        key_id: deriveKeyId(2, 0, index).toHex(),
      });
    // Mainnet's first payout (1,440 blocks of 142,080,000), and a miner's reward (no levy).
    const mainnetPayout = line(makeCoinbase(7, 204_595_200_000n), 7);
    const minerReward = line(autoCoinbase(1), 1);
    const lines = [
      ...floonetLines.slice(0, 3),
      minerReward,
      minerReward,
      mainnetPayout,
      minerReward,
    ];
    assert.deepEqual(await verify(writeLines('levies.jsonl', lines)), {
      code: 0,
      stdout: [
        'levy 710400000 (7.104 EPIC): 3 lines',
        'levy 204595200000 (2045.952 EPIC): 1 line',
        'no known levy amount: lines 4-5, 7',
        '7 passed, 0 failed',
        '',
      ].join('\n'),
      stderr: '',
    });
  });

  it('refuses a missing, a directory and an empty file in one line (exit 1)', async () => {
    const missing = join(dir, 'missing.jsonl');
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    const cases: readonly [string, string][] = [
      [missing, `mwnode: foundation file ${missing}: file does not exist\n`],
      [dir, `mwnode: foundation file ${dir}: is a directory\n`],
      [empty, `mwnode: foundation file ${empty}: holds no lines\n`],
    ];
    for (const [file, stderr] of cases)
      assert.deepEqual(await verify(file), { code: 1, stdout: '', stderr });
  });
});
