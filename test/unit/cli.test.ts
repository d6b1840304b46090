// The two executables through their bin/ shims, as a user runs them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { REPO_ROOT } from '../support/paths.js';

const version = (
  JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

function run(bin: string, ...args: string[]) {
  const res = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', bin), ...args], {
    encoding: 'utf8',
  });
  return { code: res.status, out: res.stdout, err: res.stderr };
}

describe('executables', () => {
  for (const bin of ['mwnode', 'mwwallet']) {
    it(`${bin} --version / --help / unknown option`, () => {
      assert.deepEqual(run(bin, '--version'), { code: 0, out: `${bin} ${version}\n`, err: '' });
      const help = run(bin, '--help');
      assert.equal(help.code, 0);
      assert.ok(help.out.startsWith(`${bin} ${version}\n`));
      assert.ok(help.out.includes(`USAGE:\n    ${bin} [OPTIONS]\n`));
      assert.deepEqual(run(bin, '--frobnicate'), {
        code: 2,
        out: '',
        err: `${bin}: unknown command or option '--frobnicate' (see ${bin} --help)\n`,
      });
    });
  }
});
