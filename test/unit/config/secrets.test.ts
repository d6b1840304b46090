// API secret files (spec §5.2, §5.3): creation, the first-line rule, repair of an empty file,
// and the foreign secret failing closed.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { defaultServerConfig } from '../../../config/defaults.js';
import {
  ensureApiSecret,
  generateSecret,
  readApiSecretIfPresent,
  readApiSecrets,
  readForeignSecret,
  SecretFileError,
} from '../../../config/secrets.js';

const SECRET_RE = /^[A-Za-z0-9]{20}$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const root = mkdtempSync(join(tmpdir(), 'mwnode-secrets-'));
after(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
const fresh = (): string => join(root, `secret${++n}`);
const mode = (path: string): number => statSync(path).mode & 0o777;

function assertFreshSecret(path: string, returned: string): void {
  const text = readFileSync(path, 'utf8');
  assert.match(text, SECRET_RE);
  assert.equal(returned, text);
  assert.equal(mode(path), 0o600);
}

describe('generateSecret', () => {
  it('draws 20 characters of [A-Za-z0-9]', () => {
    for (let i = 0; i < 100; i++) assert.match(generateSecret(), SECRET_RE);
  });

  it('is uniform: no modulo bias toward the first 8 characters', () => {
    // 124,000 draws, 2,000 expected per character (sd ≈ 44); `byte % 62` would give the first
    // eight about 2,500 each.
    const counts = new Map<string, number>();
    for (const ch of generateSecret(62 * 2000)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    assert.equal(counts.size, 62);
    for (const ch of ALPHABET) {
      const c = counts.get(ch) ?? 0;
      assert.ok(c > 1700 && c < 2300, `${ch}: ${c}`);
    }
  });
});

describe('ensureApiSecret', () => {
  it('creates a missing file: 20 characters, no newline, mode 0600', () => {
    const path = fresh();
    assertFreshSecret(path, ensureApiSecret(path));
    assert.equal(ensureApiSecret(path), readFileSync(path, 'utf8'));
  });

  it('reads the first line only, without \\n or \\r\\n, and leaves the file alone', () => {
    const path = fresh();
    writeFileSync(path, 'first line\r\nsecond\n', { mode: 0o644 });
    assert.equal(ensureApiSecret(path), 'first line');
    assert.equal(readFileSync(path, 'utf8'), 'first line\r\nsecond\n');
    assert.equal(mode(path), 0o644);
    writeFileSync(path, 'abc\n');
    assert.equal(ensureApiSecret(path), 'abc');
  });

  for (const [name, content] of [
    ['an empty file', Buffer.alloc(0)],
    ['an empty first line', Buffer.from('\nsecond\n')],
    ['an empty first line (CRLF)', Buffer.from('\r\n')],
    ['a first line that is not UTF-8', Buffer.from([0xff, 0xfe, 0x0a])],
  ] as const) {
    it(`rewrites ${name} with a fresh secret`, () => {
      const path = fresh();
      writeFileSync(path, content, { mode: 0o644 });
      assertFreshSecret(path, ensureApiSecret(path));
    });
  }

  it('fails with the path when the directory is missing', () => {
    const path = join(root, 'no-such-dir', '.api_secret');
    assert.throws(() => ensureApiSecret(path), {
      name: 'SecretFileError',
      message: `API secret file ${path}: cannot be written (its directory does not exist)`,
    });
  });

  it('fails when the file cannot be read', () => {
    // Permission bits do not stop root (CI runs as root); a directory in its place does.
    const path = fresh();
    mkdirSync(path);
    assert.throws(() => ensureApiSecret(path), {
      message: `API secret file ${path}: is a directory`,
    });
  });
});

describe('readApiSecrets', () => {
  const base = defaultServerConfig('automated', root);

  it('no keys, no credentials', () => {
    const config = { ...base, apiSecretPath: null, foreignApiSecretPath: null };
    assert.deepEqual(readApiSecrets(config), { owner: null, foreign: null });
  });

  it('owner is created on demand, foreign read as given', () => {
    const owner = fresh();
    const foreign = fresh();
    writeFileSync(foreign, 'foreignsecret\n');
    const got = readApiSecrets({ ...base, apiSecretPath: owner, foreignApiSecretPath: foreign });
    assert.deepEqual(got, { owner: readFileSync(owner, 'utf8'), foreign: 'foreignsecret' });
    assert.match(got.owner ?? '', SECRET_RE);
  });

  it('foreign secret fails closed: missing, empty or blank file stops the start', () => {
    const missing = fresh();
    const cases: [string, string | null, string][] = [
      [missing, null, 'file does not exist'],
      [fresh(), '', 'file is empty'],
      [fresh(), '\nsecret\n', 'first line is empty or not UTF-8'],
    ];
    for (const [path, content, reason] of cases) {
      if (content !== null) writeFileSync(path, content);
      assert.throws(
        () => readApiSecrets({ ...base, apiSecretPath: null, foreignApiSecretPath: path }),
        (err: unknown) =>
          err instanceof SecretFileError &&
          err.kind === 'foreign' &&
          err.reason === reason &&
          err.message === `foreign API secret file ${path}: ${reason}`,
      );
    }
    // The node never creates the foreign secret.
    assert.throws(() => readForeignSecret(missing));
    assert.throws(() => statSync(missing), { code: 'ENOENT' });
  });
});

describe('readApiSecretIfPresent (client side)', () => {
  it('reads without ever writing', () => {
    const path = fresh();
    assert.equal(readApiSecretIfPresent(path), null);
    assert.throws(() => statSync(path), { code: 'ENOENT' });
    writeFileSync(path, '');
    assert.equal(readApiSecretIfPresent(path), null);
    assert.equal(readFileSync(path, 'utf8'), '');
    writeFileSync(path, 'abc\r\n');
    assert.equal(readApiSecretIfPresent(path), 'abc');
  });
});
