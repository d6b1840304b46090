// Finding and writing the config file: network directory, first-run generation, the working
// directory's file, --config_file, and the size cap.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { defaultServerConfig } from '../../../config/defaults.js';
import { ConfigError } from '../../../config/errors.js';
import { ensureNetworkDir, networkDir } from '../../../config/home.js';
import { loadServerConfig, readConfigFile, writeDefaultConfigIn } from '../../../config/load.js';

const root = mkdtempSync(join(tmpdir(), 'mwnode-load-'));
after(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
function freshDirs(): { home: string; cwd: string } {
  n += 1;
  const home = join(root, `home${n}`);
  const cwd = mkdtempSync(join(root, `cwd${n}-`));
  return { home, cwd };
}

describe('network directory', () => {
  it('is <home>/<short name>, created with mode 0700', () => {
    const { home } = freshDirs();
    assert.equal(networkDir(home, 'automated'), join(home, 'auto'));
    assert.equal(networkDir(home, 'usernet'), join(home, 'user'));
    const dir = ensureNetworkDir(home, 'floonet');
    assert.equal(dir, join(home, 'floo'));
    assert.equal(statSync(dir).mode & 0o777, 0o700);
  });
});

describe('loadServerConfig', () => {
  it('writes the default file on first run, then reads it back unchanged', () => {
    const { home, cwd } = freshDirs();
    const first = loadServerConfig({ home, chain: 'floonet', cwd, create: true });
    const dir = join(home, 'floo');
    assert.equal(first.file, join(dir, 'mwnode-server.toml'));
    assert.equal(first.created, true);
    assert.deepEqual(first.config, defaultServerConfig('floonet', dir));
    assert.deepEqual(first.config.apiHttpAddr, { host: '127.0.0.1', port: 13413 });
    const text = readFileSync(join(dir, 'mwnode-server.toml'), 'utf8');
    const second = loadServerConfig({ home, chain: 'floonet', cwd, create: true });
    assert.deepEqual(second, { ...first, created: false });
    assert.equal(readFileSync(join(dir, 'mwnode-server.toml'), 'utf8'), text);
  });

  it('without create, a missing file means the defaults and nothing is written', () => {
    const { home, cwd } = freshDirs();
    const got = loadServerConfig({ home, chain: 'mainnet', cwd });
    assert.deepEqual(got, {
      config: defaultServerConfig('mainnet', join(home, 'main')),
      file: null,
      created: false,
    });
    assert.equal(existsSync(home), false);
  });

  it('prefers ./mwnode-server.toml in the working directory', () => {
    const { home, cwd } = freshDirs();
    loadServerConfig({ home, chain: 'mainnet', cwd, create: true });
    writeFileSync(join(cwd, 'mwnode-server.toml'), '[server]\napi_http_addr = "127.0.0.1:4000"\n');
    const got = loadServerConfig({ home, chain: 'mainnet', cwd, create: true });
    assert.equal(got.file, join(cwd, 'mwnode-server.toml'));
    assert.deepEqual(got.config.apiHttpAddr, { host: '127.0.0.1', port: 4000 });
    assert.equal(got.config.dbRoot, join(home, 'main', 'chain_data'));
  });

  it('--config_file wins, relative to the working directory; a missing one is an error', () => {
    const { home, cwd } = freshDirs();
    writeFileSync(join(cwd, 'mwnode-server.toml'), '[server]\napi_http_addr = "127.0.0.1:4000"\n');
    writeFileSync(join(cwd, 'other.toml'), '[server]\ndb_root = "db"\n');
    const got = loadServerConfig({ home, chain: 'mainnet', cwd, configFile: 'other.toml' });
    assert.equal(got.file, join(cwd, 'other.toml'));
    assert.equal(got.config.dbRoot, join(cwd, 'db'));
    assert.deepEqual(got.config.apiHttpAddr, { host: '127.0.0.1', port: 3413 });
    assert.throws(
      () => loadServerConfig({ home, chain: 'mainnet', cwd, configFile: 'nope.toml' }),
      (err: unknown) =>
        err instanceof ConfigError &&
        err.message === `${join(cwd, 'nope.toml')}: file does not exist`,
    );
  });

  it('refuses a file over 1 MiB and one that is not UTF-8', () => {
    const { cwd } = freshDirs();
    const big = join(cwd, 'big.toml');
    writeFileSync(big, `[server]\n#${'x'.repeat(1024 * 1024)}\n`);
    assert.throws(() => readConfigFile(big, 'mainnet', cwd), {
      name: 'ConfigError',
      message: `${big}: file is larger than 1048576 bytes`,
    });
    const bad = join(cwd, 'bad.toml');
    writeFileSync(bad, Buffer.from([0x5b, 0xff, 0x5d]));
    assert.throws(() => readConfigFile(bad, 'mainnet', cwd), {
      name: 'ConfigError',
      message: `${bad}: not valid UTF-8`,
    });
  });
});

describe('writeDefaultConfigIn (mwnode server config)', () => {
  it('writes paths inside the directory, and never overwrites', () => {
    const { home, cwd } = freshDirs();
    const file = writeDefaultConfigIn(cwd, home, 'usernet');
    assert.equal(file, join(cwd, 'mwnode-server.toml'));
    const text = readFileSync(join(cwd, 'mwnode-server.toml'), 'utf8');
    const config = readConfigFile(join(cwd, 'mwnode-server.toml'), 'usernet', join(home, 'user'));
    assert.deepEqual(config, defaultServerConfig('usernet', join(home, 'user'), cwd));
    assert.equal(config.dbRoot, join(cwd, 'chain_data'));
    assert.equal(config.apiSecretPath, join(cwd, '.api_secret'));
    assert.equal(writeDefaultConfigIn(cwd, home, 'usernet'), null);
    assert.equal(readFileSync(join(cwd, 'mwnode-server.toml'), 'utf8'), text);
  });
});
