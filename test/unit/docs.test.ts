// The READMEs say what is true of the repository (issue 16, item 8): the quick start comes first,
// every repository path they name exists, and no document sends a reader to files outside the
// repository (`../shared/…`) or promises as future what is already built.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { REPO_ROOT } from '../support/paths.js';

/** The top-level READMEs, the folder READMEs and docs/: what a user of the repository reads. */
function documents(): string[] {
  const folders = readdirSync(REPO_ROOT, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !['node_modules', 'dist', '.git'].includes(d.name))
    .map((d) => d.name);
  const inFolder = (dir: string) =>
    readdirSync(join(REPO_ROOT, dir))
      .filter((f) => f.endsWith('.md'))
      .map((f) => join(dir, f));
  const nested = ['native/randomx', 'native/secp256k1'];
  return ['README.md', ...folders.flatMap(inFolder), ...nested.flatMap(inFolder)];
}

const read = (file: string): string => readFileSync(join(REPO_ROOT, file), 'utf8');

/** Backticked names that start with one of the repository's own top-level folders. */
function repoPaths(text: string): string[] {
  const tops = new Set(readdirSync(REPO_ROOT));
  const names = [...text.matchAll(/`([^`\s]+)`/g)].map((m) => m[1] ?? '');
  return names.filter(
    (n) => n.includes('/') && tops.has(n.split('/')[0] ?? '') && !/[*<>{}…|]/.test(n),
  );
}

describe('documentation', () => {
  it('README: the quick start is the first section', () => {
    const headings = read('README.md')
      .split('\n')
      .filter((l) => l.startsWith('## '));
    assert.equal(headings[0], '## Quick start');
  });

  it('READMEs name only paths that exist', () => {
    const docs = ['README.md', 'actors/README.md', 'gateway/README.md', 'runtime/README.md'];
    const missing = docs.flatMap((d) =>
      repoPaths(read(d))
        .filter((p) => !existsSync(join(REPO_ROOT, p)))
        .map((p) => `${d}: ${p}`),
    );
    assert.deepEqual(missing, []);
  });

  it('no document points outside the repository or at work already done as to come', () => {
    const stale = /\.\.\/shared\/|to come\b|wallet and P2P follow|Empty until/;
    const found = documents().flatMap((d) =>
      read(d)
        .split('\n')
        .map((line, i) => ({ line, at: `${relative(REPO_ROOT, join(REPO_ROOT, d))}:${i + 1}` }))
        .filter(({ line }) => stale.test(line))
        .map(({ line, at }) => `${at}: ${line.trim()}`),
    );
    assert.deepEqual(found, []);
  });
});
