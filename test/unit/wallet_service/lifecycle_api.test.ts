// lifecycleApi (actors/wallet/lifecycle_api.ts) on a real WalletLifecycle in a temporary
// directory: the nine lifecycle methods' exact results and Epic's error values, and the
// mwwallet.toml create_config writes (read back with the config reader).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { WalletEnv } from '../../../actors/wallet/env.js';
import { currentToken, lifecycleApi } from '../../../actors/wallet/lifecycle_api.js';
import { ownerReadApi } from '../../../actors/wallet/owner_read.js';
import { defaultWalletConfig, readWalletConfigFile } from '../../../config/wallet_toml.js';
import { toHex } from '../../../core/bytes.js';
import { makeEnv, rejectsWith, removeDir, tempDir } from './service_fixture.js';

const dirs: string[] = [];
function fresh(): { env: WalletEnv; top: string; api: ReturnType<typeof lifecycleApi> } {
  const top = tempDir();
  dirs.push(top);
  const env = makeEnv(top);
  return { env, top, api: lifecycleApi(env) };
}

after(() => {
  for (const d of dirs) removeDir(d);
});

const PHRASE =
  'shop dignity online camera various front stay prosper bench dash learn chimney huge crush ' +
  'develop rack beauty prison wear manual harbor theory bachelor exile';

describe('top level directory', () => {
  it('get returns the configured directory, set changes it and answers null', async () => {
    const { api, top } = fresh();
    assert.equal(await api.getTopLevelDirectory(), top);
    const other = join(top, 'other');
    assert.equal(await api.setTopLevelDirectory(other), null);
    assert.equal(await api.getTopLevelDirectory(), other);
  });
});

describe('create_config', () => {
  it('all null: the chain defaults, written as mwwallet.toml, and a node secret', async () => {
    const { api, top } = fresh();
    assert.equal(await api.createConfig('AutomatedTesting', null, null, null, null), null);
    const file = join(top, 'mwwallet.toml');
    assert.deepEqual(
      readWalletConfigFile(file, 'automated', top),
      defaultWalletConfig('automated', top),
    );
    assert.match(readFileSync(join(top, '.api_secret'), 'utf8'), /^[0-9A-Za-z]{20}$/);
  });

  it('given objects overlay the defaults; path keys follow the top directory (update_paths)', async () => {
    const { api, top } = fresh();
    const wallet = {
      chain_type: 'Mainnet',
      api_listen_interface: '127.0.0.1',
      api_listen_port: 40_415,
      owner_api_listen_port: 40_420,
      api_secret_path: null,
      node_api_secret_path: '/elsewhere/.api_secret',
      check_node_api_http_addr: 'http://127.0.0.1:40413',
      owner_api_include_foreign: true,
      data_file_dir: '/elsewhere/wallet_data',
      no_commit_cache: null,
      tls_certificate_file: null,
      tls_certificate_key: null,
      dark_background_color_scheme: false,
      keybase_notify_ttl: 10,
    };
    const logging = { log_to_stdout: false, stdout_log_level: 'Debug', log_file_path: '/x.log' };
    const epicbox = {
      epicbox_domain: 'box.example',
      epicbox_port: 8443,
      epicbox_protocol_unsecure: true,
      epicbox_address_index: 2,
    };
    assert.equal(await api.createConfig('AutomatedTesting', wallet, logging, null, epicbox), null);
    const d = defaultWalletConfig('automated', top);
    assert.deepEqual(readWalletConfigFile(join(top, 'mwwallet.toml'), 'automated', top), {
      ...d,
      apiListenPort: 40_415,
      ownerApiListenPort: 40_420,
      checkNodeApiHttpAddr: 'http://127.0.0.1:40413',
      ownerApiIncludeForeign: true,
      darkBackgroundColorScheme: false,
      keybaseNotifyTtl: 10,
      logging: { ...d.logging, logToStdout: false, stdoutLogLevel: 'Debug' },
      epicbox: {
        epicboxDomain: 'box.example',
        epicboxPort: 8443,
        epicboxProtocolUnsecure: true,
        epicboxAddressIndex: 2,
      },
    });
  });

  it('an existing file without wallet data is left alone; with wallet data it is an error', async () => {
    const { api, top } = fresh();
    const file = join(top, 'mwwallet.toml');
    writeFileSync(file, '[wallet]\n');
    assert.equal(await api.createConfig('AutomatedTesting', null, null, null, null), null);
    assert.equal(readFileSync(file, 'utf8'), '[wallet]\n');
    assert.equal(existsSync(join(top, '.api_secret')), false);
    mkdirSync(join(top, 'wallet_data'));
    await rejectsWith(api.createConfig('AutomatedTesting', null, null, null, null), {
      Lifecycle: `mwwallet.toml already exists in the target directory (${file}). Please remove it first`,
    });
  });

  it('a value the config reader refuses is a Lifecycle error and writes nothing', async () => {
    const { api, top } = fresh();
    const file = join(top, 'mwwallet.toml');
    await assert.rejects(
      api.createConfig('AutomatedTesting', { api_listen_port: 70_000 }, null, null, null),
      (e: unknown) => {
        const err = (e as { err: { Lifecycle: string } }).err;
        assert.ok(err.Lifecycle.startsWith(`Error creating config file as (${file}): `));
        assert.match(err.Lifecycle, /api_listen_port/);
        return true;
      },
    );
    assert.equal(existsSync(file), false);
  });

  it('non-object configs and unknown chains are argument errors', async () => {
    const { api } = fresh();
    await rejectsWith(api.createConfig('AutomatedTesting', 'x', null, null, null), {
      ArgumentError: 'wallet_config must be an object or null',
    });
    await rejectsWith(api.createConfig('AutomatedTesting', { a: [1] }, null, null, null), {
      ArgumentError: 'wallet_config.a must be a string, number or boolean',
    });
    await rejectsWith(api.createConfig('Testnet' as 'Mainnet', null, null, null, null), {
      ArgumentError: 'unknown chain type Testnet',
    });
  });
});

describe('wallet lifecycle', () => {
  it('create, open (token), mnemonic, change password, close, delete', async () => {
    const { api, env, top } = fresh();
    const dataDir = join(top, 'wallet_data');
    assert.equal(await api.createWallet(null, null, 32, 'pw1'), null);
    await rejectsWith(api.createWallet(null, null, 32, 'pw1'), {
      WalletSeedExists: `Wallet seed already exists at: ${dataDir}`,
    });
    await rejectsWith(api.openWallet(null, 'wrong'), {
      Lifecycle: 'Error opening wallet (is password correct?)',
    });
    const token = await api.openWallet(null, 'pw1');
    assert.equal(typeof token, 'string');
    assert.match(token as string, /^[0-9a-f]{64}$/);
    const tok = currentToken(env);
    assert.ok(tok !== null);
    assert.equal(toHex(tok), token);
    // A fresh wallet's init status: no scan needed.
    assert.equal(env.lifecycle.store().initStatus(), 'InitNoScanning');

    await rejectsWith(api.getMnemonic(null, 'wrong'), {
      Lifecycle: 'Error opening wallet seed file',
    });
    const words = (await api.getMnemonic(null, 'pw1')) as string;
    assert.equal(words.split(' ').length, 24);

    assert.equal(await api.changePassword(null, 'pw1', 'pw2', true), null);
    assert.equal(existsSync(join(dataDir, 'wallet.seed.bak')), false);
    await rejectsWith(api.getMnemonic(null, 'pw1'), {
      Lifecycle: 'Error opening wallet seed file',
    });
    assert.equal(await api.getMnemonic(null, 'pw2'), words);

    // a second open invalidates the first token
    const token2 = await api.openWallet(null, 'pw2');
    assert.notEqual(token2, token);
    const read = ownerReadApi(env);
    await rejectsWith(read.accounts(Buffer.from(token as string, 'hex')), 'InvalidKeychainMask');

    assert.equal(await api.closeWallet(null), null);
    assert.equal(currentToken(env), null);
    await rejectsWith(read.accounts(null), { Lifecycle: 'Wallet has not been opened' });

    // delete_wallet takes the token (spec §4.6): refused closed, without it, or with an old one
    const seedFile = join(dataDir, 'wallet.seed');
    await rejectsWith(api.deleteWallet(null, null), { Lifecycle: 'Wallet has not been opened' });
    const token3 = Buffer.from((await api.openWallet(null, 'pw2')) as string, 'hex');
    await rejectsWith(api.deleteWallet(null, null), 'InvalidKeychainMask');
    await rejectsWith(
      api.deleteWallet(Buffer.from(token2 as string, 'hex'), null),
      'InvalidKeychainMask',
    );
    assert.equal(existsSync(seedFile), true);
    assert.equal(await api.deleteWallet(token3, null), null);
    assert.equal(existsSync(seedFile), false);
  });

  it('a recovered wallet needs its first scan; a bad phrase is refused', async () => {
    const { api, env } = fresh();
    await rejectsWith(api.createWallet(null, 'not a phrase', 32, 'pw'), {
      GenericError: 'Validating mnemonic',
    });
    assert.equal(await api.createWallet(null, PHRASE, 32, 'pw'), null);
    await api.openWallet(null, 'pw');
    assert.equal(env.lifecycle.store().initStatus(), 'InitNeedsScanning');
    assert.equal(await api.getMnemonic(null, 'pw'), PHRASE);
  });
});
