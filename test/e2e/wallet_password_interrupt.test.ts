// Ctrl-C at mwwallet's password prompt, on a real terminal (a pty made by util-linux `script`):
// the command ends at once with the shell's interrupt code 130, nothing typed is echoed, and no
// stack or error is printed; Ctrl-D instead ends it with a clear message.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { after, describe, it } from 'node:test';
import { removeHome, tempHome } from '../support/node_process.js';
import { MWWALLET } from '../support/wallet_process.js';

const hasScript = spawnSync('script', ['--version']).error === undefined;

/** `mwwallet --auto info` on a pty; `keys` typed once the prompt shows. */
function atPrompt(home: string, keys: string): Promise<{ code: number | null; out: string }> {
  const command = `${process.execPath} ${MWWALLET} --auto --home ${home} info`;
  const proc = spawn('script', ['-qfec', command, '/dev/null'], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let typed = false;
  proc.stdout.setEncoding('utf8').on('data', (c: string) => {
    out += c;
    if (!typed && out.includes('Password: ')) {
      typed = true;
      proc.stdin.write(keys);
    }
  });
  const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
  return new Promise((resolve) =>
    proc.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    }),
  );
}

describe('Ctrl-C at the password prompt', {
  skip: hasScript ? false : 'no util-linux script',
}, () => {
  const home = tempHome();
  after(() => removeHome(home));

  it('ends the command with 130, echoing nothing and printing no error', async () => {
    const r = await atPrompt(home, 'secret\x03');
    assert.equal(r.code, 130);
    assert.ok(r.out.includes('Password: '));
    assert.ok(!r.out.includes('secret'), 'nothing typed is echoed');
    assert.ok(!/error|Error|at /.test(r.out), r.out);
  });

  it('Ctrl-D before a line says no password was given', async () => {
    const r = await atPrompt(home, '\x04');
    assert.equal(r.code, 1);
    assert.match(r.out, /mwwallet: no password given \(input ended\)/);
  });
});
