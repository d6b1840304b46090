// The foundation file: integrity, line ↔ height mapping, refusals (consensus reference §8,
// §15.8), and how the node finds and reads it.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import {
  FOUNDATION_FILE_LIMIT,
  FoundationPathError,
  foundationFilePath,
  loadFoundationFile,
  openFoundationFile,
  SHIPPED_FOUNDATION_FILE,
} from '../../../config/foundation.js';
import { toHex } from '../../../core/bytes.js';
import type { ChainType } from '../../../core/chain_type.js';
import {
  type FoundationFile,
  FoundationFileError,
  FoundationIndexError,
  FoundationMissingError,
  foundationFileFor,
  foundationFileSha256,
  foundationHeightOfLine,
  foundationIndex,
  foundationLine,
  lastFoundationHeight,
  parseFoundationFile,
  parseFoundationLines,
  requiredFoundationLines,
} from '../../../core/consensus/foundation.js';
import { REPO_ROOT, SHARED_VECTORS } from '../../support/paths.js';

const FLOONET_SHA = '503a4d5ccf214df86722d14cc93c1779c54e5b827773c8a2f65888a06f2efbad';
const MAINNET_SHA = '5a3a7584127dd31fba18eaeff1c551bfaa74b4e50e537a1e1904fe6730b17f5c';
const LINE_0 = '096b43c9245a1181bd81b7765df868ad9f4c8512f67f5c48f6518dcd150ef072bc';
const LINE_1 = '08a4d252df54161f98941ad7e35019eba87f536acc69ec9f7df5ec6e46453ff48c';
const LINE_2 = '0805ec16b2278f8f833fd4f3ab9b095a069d38f17db14fb0b85d57e602d23c6c32';

const shipped = readFileSync(join(REPO_ROOT, 'data', 'foundation_floonet.jsonl'));
const text = shipped.toString('latin1');
const fromText = (s: string): Uint8Array => Buffer.from(s, 'latin1');
const withoutLastLine = fromText(`${text.split('\n').slice(0, 499).join('\n')}\n`);

// Parsing 500 lines takes tens of milliseconds: once per chain type is enough.
const parsedShipped = new Map<ChainType, FoundationFile>();
function shippedFor(type: ChainType): FoundationFile {
  const cached = parsedShipped.get(type);
  if (cached !== undefined) return cached;
  const file = parseFoundationFile(shipped, type, 'shipped');
  parsedShipped.set(type, file);
  return file;
}

function refusal(file: string, problems: unknown[]) {
  return (e: unknown): boolean => {
    assert.ok(e instanceof FoundationFileError, String(e));
    assert.equal(e.file, file);
    assert.deepEqual(e.problems, problems);
    return true;
  };
}

function missing(height: bigint, kind: string, message: string) {
  return (e: unknown): boolean => {
    assert.ok(e instanceof FoundationIndexError, String(e));
    assert.deepEqual([e.height, e.kind, e.message], [height, kind, message]);
    return true;
  };
}

const commitAt = (file: FoundationFile, h: bigint): string =>
  toHex(foundationLine(file, h).output.commit);

describe('the shipped floonet file', () => {
  it('is a byte-exact copy of the reference file and passes its SHA-256 check', () => {
    assert.ok(shipped.equals(readFileSync(join(SHARED_VECTORS, 'foundation_floonet.jsonl'))));
    assert.equal(foundationFileSha256(shipped), FLOONET_SHA);
    for (const t of ['floonet', 'usernet', 'automated'] as const) {
      const file = shippedFor(t);
      assert.equal(file.lines.length, 500);
      assert.equal(file.chainType, t);
    }
  });

  it('§15.8: floonet heights 1440, 2880, 4320 pay to lines 0, 1, 2', () => {
    const file = shippedFor('floonet');
    assert.deepEqual(
      [1440n, 2880n, 4320n].map((h) => commitAt(file, h)),
      [LINE_0, LINE_1, LINE_2],
    );
    assert.equal(lastFoundationHeight(file), 720_000n);
  });

  it('automated testing (F = 5): heights 5, 10, 15 → lines 0, 1, 2; 2,500 → line 499', () => {
    const file = shippedFor('automated');
    assert.equal(commitAt(file, 5n), LINE_0);
    assert.equal(commitAt(file, 10n), LINE_1);
    assert.equal(commitAt(file, 15n), LINE_2);
    assert.deepEqual(
      [5n, 10n, 15n, 2500n].map((h) => foundationIndex('automated', h)),
      [0n, 1n, 2n, 499n],
    );
    assert.equal(lastFoundationHeight(file), 2500n);
    assert.equal(foundationLine(file, 2500n), file.lines[499]);
    assert.equal(toHex(foundationLine(file, 5n).keyId), '030000000000000000000004b000000000');
    fc.assert(
      fc.property(fc.nat({ max: 499 }), (k) => {
        const h = foundationHeightOfLine('automated', k);
        assert.equal(h, BigInt(k + 1) * 5n);
        assert.equal(foundationIndex('automated', h), BigInt(k));
        assert.equal(foundationLine(file, h), file.lines[k]);
      }),
    );
  });

  it('heights without a line are typed errors, never a crash', () => {
    const file = shippedFor('automated');
    const first = 'the first pays at height 5';
    assert.throws(
      () => foundationLine(file, 0n),
      missing(0n, 'before-first', `height 0 has no foundation line: ${first}`),
    );
    assert.throws(
      () => foundationIndex('automated', 4n),
      missing(4n, 'before-first', `height 4 has no foundation line: ${first}`),
    );
    assert.throws(
      () => foundationLine(file, 7n),
      missing(
        7n,
        'not-a-payout-height',
        'height 7 is not a multiple of 5: no foundation line pays there',
      ),
    );
    assert.throws(
      () => foundationLine(file, 2505n),
      missing(
        2505n,
        'past-end',
        'height 2505 needs line 501 of foundation file shipped, which holds 500 lines (up to height 2500)',
      ),
    );
    const top = 0xffff_ffff_ffff_ffffn;
    assert.throws(
      () => foundationLine(file, top),
      missing(
        top,
        'past-end',
        `height ${top} needs line 3689348814741910323 of foundation file shipped, which holds 500 lines (up to height 2500)`,
      ),
    );
    const floonet = shippedFor('floonet');
    assert.throws(() => foundationLine(floonet, 5n), FoundationIndexError);
  });
});

describe('refused and accepted copies', () => {
  it('one changed byte: refused, naming the file and both hashes', () => {
    const changed = Uint8Array.from(shipped);
    changed[100] = 0x30; // a '5' inside line 0's commitment
    assert.throws(
      () => parseFoundationFile(changed, 'floonet', 'changed.jsonl'),
      refusal('changed.jsonl', [
        {
          kind: 'hash',
          expected: FLOONET_SHA,
          actual: 'ff52d0dff126ee63db56774548a38cdf3a4d62f442a2374c8f78c83f6808c6fb',
        },
      ]),
    );
    assert.throws(
      () => parseFoundationFile(changed, 'floonet', 'changed.jsonl'),
      new RegExp(
        `^FoundationFileError: foundation file changed\\.jsonl: SHA-256 \\(CRLF→LF\\) is ff52d0df[0-9a-f]{56}, expected ${FLOONET_SHA}$`,
      ),
    );
  });

  it('CRLF line ends: the same hash and the same lines', () => {
    const crlf = fromText(text.replaceAll('\n', '\r\n'));
    assert.equal(foundationFileSha256(crlf), FLOONET_SHA);
    const file = parseFoundationFile(crlf, 'automated', 'crlf');
    assert.equal(file.lines.length, 500);
    assert.deepEqual(file.lines, shippedFor('automated').lines);
  });

  it('a truncated file is refused: its hash, and one line short of 500', () => {
    const problems = (upTo: bigint) => [
      {
        kind: 'hash',
        expected: FLOONET_SHA,
        actual: '99b76fb8a3626c7bcc0bd005f66be082520c8e2b2a94f4775089ebc8cffe8263',
      },
      { kind: 'short', lines: 499, needed: 500, upTo },
    ];
    assert.throws(
      () => parseFoundationFile(withoutLastLine, 'automated', 'short.jsonl'),
      refusal('short.jsonl', problems(2500n)),
    );
    assert.throws(
      () => parseFoundationFile(withoutLastLine, 'floonet', 'short.jsonl'),
      (e: unknown) =>
        e instanceof FoundationFileError &&
        e.message.endsWith('; holds 499 lines, needs 500 to cover foundation heights up to 720000'),
    );
  });

  it('a missing final line end changes the hash, not the line count', () => {
    assert.throws(
      () => parseFoundationFile(shipped.subarray(0, -1), 'floonet', 'no-lf'),
      refusal('no-lf', [
        {
          kind: 'hash',
          expected: FLOONET_SHA,
          actual: '3f66e3191cc3cf2bc8d3207547b4138ca85f750029f304217228bb069ab83479',
        },
      ]),
    );
  });

  it('mainnet needs its own file; its hash, not a line count, pins it', () => {
    assert.deepEqual(
      (['mainnet', 'floonet', 'usernet', 'automated'] as ChainType[]).map(requiredFoundationLines),
      [0, 500, 500, 500],
    );
    assert.throws(
      () => parseFoundationFile(shipped, 'mainnet', 'floonet.jsonl'),
      refusal('floonet.jsonl', [{ kind: 'hash', expected: MAINNET_SHA, actual: FLOONET_SHA }]),
    );
  });

  it('malformed lines are refused with their 1-based number', () => {
    const first = text.slice(0, text.indexOf('\n') + 1);
    assert.equal(parseFoundationLines(fromText(first), 'x').length, 1);
    assert.throws(
      () => parseFoundationLines(fromText(`${first}{"output":1}\n`), 'two.jsonl'),
      (e: unknown) =>
        e instanceof FoundationFileError &&
        e.problems.length === 1 &&
        e.problems[0]?.kind === 'line' &&
        e.problems[0].line === 2 &&
        e.message.startsWith('foundation file two.jsonl: line 2: '),
    );
    assert.throws(
      () => parseFoundationLines(fromText(`${first}\n`), 'blank.jsonl'),
      refusal('blank.jsonl', [
        { kind: 'line', line: 2, detail: 'EOF while parsing a value at line 1 column 0' },
      ]),
    );
    assert.throws(
      () => parseFoundationLines(Uint8Array.of(0xff, 0x0a), 'bin.jsonl'),
      (e: unknown) =>
        e instanceof FoundationFileError &&
        e.message.startsWith('foundation file bin.jsonl: line 1: '),
    );
  });
});

describe('config: which file, read with a cap', () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'mwnode-foundation-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('floonet, usernet and automated testing use the shipped file unless configured', () => {
    assert.equal(SHIPPED_FOUNDATION_FILE, join(REPO_ROOT, 'data', 'foundation_floonet.jsonl'));
    for (const t of ['floonet', 'usernet', 'automated'] as const) {
      assert.equal(foundationFilePath(t, null), SHIPPED_FOUNDATION_FILE);
      assert.equal(foundationFilePath(t, '/x/f.json'), '/x/f.json');
    }
    const opened = openFoundationFile('automated', null);
    assert.equal(opened.warning, null);
    assert.equal(opened.source.file?.name, SHIPPED_FOUNDATION_FILE);
    assert.equal(commitAt(loadFoundationFile('automated', SHIPPED_FOUNDATION_FILE), 5n), LINE_0);
  });

  it('mainnet without a configured path runs without a file, with one warning', () => {
    assert.equal(foundationFilePath('mainnet', null), null);
    assert.deepEqual(openFoundationFile('mainnet', null), {
      source: { file: null, missing: { chainType: 'mainnet', configured: null } },
      warning: {
        event: 'foundation_missing',
        fields: {
          foundation_path: null,
          message: `blocks at foundation heights (every 1440th) cannot be validated or built without Epic's foundation.json (SHA-256 ${MAINNET_SHA}); [server] foundation_path is not set`,
        },
      },
    });
  });

  it('a configured path that does not exist falls back as in Epic, with a warning', () => {
    const absent = join(dir, 'absent.json');
    assert.deepEqual(openFoundationFile('mainnet', absent), {
      source: { file: null, missing: { chainType: 'mainnet', configured: absent } },
      warning: {
        event: 'foundation_missing',
        fields: {
          foundation_path: absent,
          message: `blocks at foundation heights (every 1440th) cannot be validated or built without Epic's foundation.json (SHA-256 ${MAINNET_SHA}); [server] foundation_path ${absent} does not exist`,
        },
      },
    });
    const floonet = openFoundationFile('floonet', absent);
    assert.equal(floonet.source.file?.name, SHIPPED_FOUNDATION_FILE);
    assert.deepEqual(floonet.warning, {
      event: 'foundation_fallback',
      fields: {
        foundation_path: absent,
        message: `foundation file ${absent} does not exist; using the shipped ${SHIPPED_FOUNDATION_FILE}`,
      },
    });
  });

  it('a block or template at a foundation height without the file is a typed error', () => {
    const missing = { chainType: 'mainnet', configured: null } as const;
    const source = { file: null, missing };
    assert.throws(
      () => foundationFileFor(source, 1440n, 'validate a block'),
      (e: unknown) =>
        e instanceof FoundationMissingError &&
        e.code === 'FoundationMissing' &&
        e.height === 1440n &&
        e.message ===
          `no foundation file: cannot validate a block at foundation height 1440 without Epic's foundation.json (SHA-256 ${MAINNET_SHA}); [server] foundation_path is not set`,
    );
  });

  it('a configured CRLF copy is accepted', () => {
    const path = join(dir, 'crlf.json');
    writeFileSync(path, text.replaceAll('\n', '\r\n'), 'latin1');
    const file = loadFoundationFile('floonet', path);
    assert.equal(file.name, path);
    assert.equal(commitAt(file, 2880n), LINE_1);
  });

  it('configured files that are unusable are refused, naming the file', () => {
    const changed = join(dir, 'changed.json');
    writeFileSync(changed, withoutLastLine);
    assert.throws(
      () => loadFoundationFile('usernet', changed),
      (e: unknown) =>
        e instanceof FoundationFileError &&
        e.file === changed &&
        e.message.startsWith(`foundation file ${changed}: SHA-256 (CRLF→LF) is 99b76fb8`),
    );
    assert.throws(
      () => openFoundationFile('mainnet', SHIPPED_FOUNDATION_FILE),
      FoundationFileError,
    );

    const absent = join(dir, 'absent.json');
    const huge = join(dir, 'huge.json');
    writeFileSync(huge, '');
    truncateSync(huge, FOUNDATION_FILE_LIMIT + 1);
    const sub = join(dir, 'sub');
    mkdirSync(sub);
    const cases: readonly (readonly [string, string])[] = [
      [absent, 'file does not exist'],
      [huge, 'file is larger than 16777216 bytes'],
      [sub, 'is a directory'],
    ];
    for (const [path, problem] of cases) {
      const open = path === absent ? loadFoundationFile : openFoundationFile;
      assert.throws(
        () => open('floonet', path),
        (e: unknown) =>
          e instanceof FoundationPathError &&
          e.file === path &&
          e.message === `foundation file ${path}: ${problem}`,
      );
    }
  });
});
