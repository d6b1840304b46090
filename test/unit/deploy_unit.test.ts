// The systemd unit docs/deploy.md gives operators is one systemd accepts, and its hardening holds:
// `systemd-analyze verify` finds nothing to say, and `systemd-analyze security` rates its
// exposure at 3.5 or better ("OK"). Skipped only where systemd-analyze is not installed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { REPO_ROOT } from '../support/paths.js';

const tool = spawnSync('systemd-analyze', ['--version'], { encoding: 'utf8' });
const missing = tool.error !== undefined ? 'systemd-analyze is not installed' : false;

describe('the systemd unit of docs/deploy.md', { skip: missing }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'mwnode-unit-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const doc = readFileSync(join(REPO_ROOT, 'docs/deploy.md'), 'utf8');
  const unit = /```ini\n([\s\S]*?)```/.exec(doc)?.[1];
  const file = join(dir, 'mwnode.service');

  it('is there, and systemd-analyze verify finds nothing to say', () => {
    assert.ok(unit?.includes('ExecStart=/usr/bin/node /opt/mwnode/dist/cli/mwnode.js'));
    writeFileSync(file, unit as string);
    const r = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
    assert.deepEqual([r.status, r.stdout, r.stderr], [0, '', '']);
  });

  it('is rated 3.5 or better by systemd-analyze security', () => {
    writeFileSync(file, unit as string);
    const r = spawnSync(
      'systemd-analyze',
      ['security', '--offline=yes', '--threshold=35', '--no-pager', file],
      { encoding: 'utf8' },
    );
    assert.equal(r.status, 0, r.stdout.split('\n').slice(-3).join('\n'));
    assert.match(r.stdout, /Overall exposure level for mwnode\.service: [0-3]\.\d OK/);
  });
});
