// The log file's size-based roll (node/log_file.ts) and the terminal form of a line
// (node/log_pretty.ts).
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { jsonLine } from '../../node/log.js';
import { RotatingLogFile } from '../../node/log_file.js';
import { prettyLine } from '../../node/log_pretty.js';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'mwnode-log-'));
  dirs.push(d);
  return d;
}
/** A 10-byte line numbered `i`. */
const line = (i: number): string => `line ${String(i).padStart(3, '0')}\n`;

describe('the log file', () => {
  it('rolls before a line would pass log_max_size, keeping log_max_files rolled files, newest .0', () => {
    const dir = tempDir();
    const path = join(dir, 'node.log');
    const f = new RotatingLogFile({ path, append: true, maxSize: 25, maxFiles: 2 });
    for (let i = 0; i < 9; i++) f.write(line(i));
    f.close();
    // Two lines (20 bytes) a file: 0-1, 2-3, 4-5, 6-7 rolled, the oldest two dropped; 8 live.
    assert.deepEqual(readdirSync(dir).sort(), ['node.log', 'node.log.0', 'node.log.1']);
    assert.equal(readFileSync(path, 'utf8'), line(8));
    assert.equal(readFileSync(`${path}.0`, 'utf8'), line(6) + line(7));
    assert.equal(readFileSync(`${path}.1`, 'utf8'), line(4) + line(5));
  });

  it('appends to what it finds (counting its size), or starts afresh when told', () => {
    const dir = tempDir();
    const path = join(dir, 'sub', 'node.log');
    const first = new RotatingLogFile({ path, append: true, maxSize: 25, maxFiles: 1 });
    first.write(line(1));
    first.close();
    const again = new RotatingLogFile({ path, append: true, maxSize: 25, maxFiles: 1 });
    again.write(line(2));
    again.write(line(3)); // 30 bytes would pass 25: the first two are rolled
    again.close();
    assert.equal(readFileSync(`${path}.0`, 'utf8'), line(1) + line(2));
    assert.equal(readFileSync(path, 'utf8'), line(3));
    const fresh = new RotatingLogFile({ path, append: false, maxSize: null, maxFiles: 1 });
    for (let i = 0; i < 5; i++) fresh.write(line(i));
    fresh.close();
    assert.equal(readFileSync(path, 'utf8'), [0, 1, 2, 3, 4].map(line).join(''));
  });

  it('with log_max_files = 0 keeps no rolled file', () => {
    const dir = tempDir();
    const path = join(dir, 'node.log');
    const f = new RotatingLogFile({ path, append: true, maxSize: 15, maxFiles: 0 });
    for (let i = 0; i < 3; i++) f.write(line(i));
    f.close();
    assert.deepEqual(readdirSync(dir), ['node.log']);
    assert.equal(readFileSync(path, 'utf8'), line(2));
  });
});

describe('a log line', () => {
  const r = {
    level: 'warn' as const,
    ts: '2026-11-28T15:06:05.123Z',
    event: 'slow_request',
    fields: { method: 'POST', path: '/v2/foreign', ms: 1200.5, big: 5n, note: 'two words' },
  };

  it('is one JSON object: level, ts, event, then the fields (bigints as text)', () => {
    assert.equal(
      jsonLine(r),
      '{"level":"warn","ts":"2026-11-28T15:06:05.123Z","event":"slow_request","method":"POST","path":"/v2/foreign","ms":1200.5,"big":"5","note":"two words"}\n',
    );
  });

  it('reads on a terminal as date, level, event and key=value fields', () => {
    assert.equal(
      prettyLine(jsonLine(r), false),
      '2026-11-28 15:06:05.123 WARN  slow_request method=POST path=/v2/foreign ms=1200.5 big=5 note="two words"\n',
    );
    assert.equal(
      prettyLine(jsonLine({ ...r, level: 'error', fields: {} }), true),
      '2026-11-28 15:06:05.123 \x1b[31mERROR\x1b[0m slow_request\n',
    );
  });
});
