// mwwallet names the keys of its mwwallet.toml it ignores, once, on standard error, with the
// file, the line and the closest known key, before it goes on with the command.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { networkDir } from '../../config/home.js';
import { WALLET_CONFIG_FILE_NAME } from '../../config/wallet_toml.js';
import { removeHome, tempHome } from '../support/node_process.js';
import {
  setWalletKeys,
  startWalletListener,
  testWallet,
  walletCommand,
} from '../support/wallet_process.js';

describe('mwwallet and the keys of its file it ignores', () => {
  const home = tempHome();
  const homes = [home];
  after(() => {
    for (const h of homes) removeHome(h);
  });

  it('says each one once on standard error, then runs the command', async () => {
    // No node runs: the command itself fails after reading the file, which is all that matters.
    const w = testWallet(home, 'automated', {
      url: 'http://127.0.0.1:9',
      secretPath: join(home, 'none'),
    });
    setWalletKeys(w, { api_listen_prot: '4000' });
    const file = join(networkDir(home, 'automated'), WALLET_CONFIG_FILE_NAME);
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('\n[logging]\n', '\n[logging]\nlog_to_fille = true\n'));
    const lines = readFileSync(file, 'utf8').split('\n');
    const at = (text: string) => lines.indexOf(text) + 1;
    const r = await walletCommand(w, ['info']);
    const notices = r.stderr.split('\n').filter((l) => l.includes('ignored'));
    assert.deepEqual(notices, [
      `mwwallet: ${file} line ${at('api_listen_prot = 4000')}: unknown key wallet.api_listen_prot (did you mean api_listen_port?): ignored`,
      `mwwallet: ${file} line ${at('log_to_fille = true')}: unknown key logging.log_to_fille (did you mean log_to_file?): ignored`,
    ]);
    assert.ok(r.stderr.startsWith(notices[0] as string), 'said first, before anything else');
  });

  it("says at `listen` that Epic's Tor listener (on by default) is not run", async () => {
    const w = testWallet(tempHome(), 'automated', {
      url: 'http://127.0.0.1:9',
      secretPath: join(home, 'none'),
    });
    homes.push(w.home);
    assert.equal((await walletCommand(w, ['init'])).code, 0);
    const listener = await startWalletListener(w, 'listen');
    try {
      const event = '"event":"tor_not_implemented"';
      for (let i = 0; i < 50 && !listener.stderr().includes(event); i++)
        await new Promise((r) => setTimeout(r, 20));
      const lines = listener
        .stderr()
        .split('\n')
        .filter((l) => l.includes(event));
      assert.equal(lines.length, 1);
      const { ts: _ts, ...fields } = JSON.parse(lines[0] as string) as Record<string, unknown>;
      assert.deepEqual(fields, {
        level: 'warn',
        event: 'tor_not_implemented',
        key: 'tor.use_tor_listener',
        message:
          'use_tor_listener = true, but mwwallet runs no Tor listener: the foreign API is served over HTTP(S) only',
      });
    } finally {
      await listener.stop();
    }
  });
});
