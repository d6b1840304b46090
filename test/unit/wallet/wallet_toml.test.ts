// mwwallet.toml: per-network defaults, Epic's keys and the spec's names, the alias, validation,
// the written file reading back to the same config, the bounded read and the lookup order.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ConfigError } from '../../../config/errors.js';
import {
  defaultWalletConfig,
  loadWalletConfig,
  parseWalletToml,
  readWalletConfigFile,
  renderWalletToml,
  WALLET_CONFIG_FILE_NAME,
  type WalletConfig,
  writeWalletConfigFile,
} from '../../../config/wallet_toml.js';
import type { ChainType } from '../../../core/chain_type.js';

const TOP = '/home/u/.mwnode/main';
const FILE = join(TOP, WALLET_CONFIG_FILE_NAME);
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function parse(text: string, chain: ChainType = 'mainnet'): WalletConfig {
  return parseWalletToml(text, { file: FILE, chain, topDir: TOP });
}

describe('wallet config defaults', () => {
  it('ports and node address per network; owner 3420 everywhere', () => {
    const rows = (['mainnet', 'floonet', 'usernet', 'automated'] as const).map((c) => {
      const d = defaultWalletConfig(c, TOP);
      return [c, d.apiListenPort, d.ownerApiListenPort, d.checkNodeApiHttpAddr];
    });
    assert.deepEqual(rows, [
      ['mainnet', 3415, 3420, 'http://127.0.0.1:3413'],
      ['floonet', 13415, 3420, 'http://127.0.0.1:13413'],
      ['usernet', 23415, 3420, 'http://127.0.0.1:23413'],
      ['automated', 33415, 3420, 'http://127.0.0.1:33413'],
    ]);
  });

  it('paths live in the top directory; the node secret is the shared .api_secret', () => {
    const d = defaultWalletConfig('mainnet', TOP);
    assert.equal(d.nodeApiSecretPath, join(TOP, '.api_secret'));
    assert.equal(d.dataFileDir, join(TOP, 'wallet_data'));
    assert.equal(d.apiSecretPath, null);
    assert.equal(d.ownerApiListenInterface, '127.0.0.1');
    assert.deepEqual(d.ownerApiAllowedOrigins, []);
    assert.equal(d.nodeApiUsername, 'node');
  });
});

describe('parseWalletToml', () => {
  it('a file with only [wallet] takes every default', () => {
    assert.deepEqual(parse('[wallet]\n'), defaultWalletConfig('mainnet', TOP));
  });

  it("reads Epic's keys; relative paths from the file's directory", () => {
    const c = parse(
      [
        '[wallet]',
        'chain_type = "Floonet"',
        'api_listen_interface = "0.0.0.0"',
        'api_listen_port = 4000',
        'owner_api_listen_port = 4001',
        'api_secret_path = ".owner_api_secret"',
        'node_api_secret_path = "/etc/node_secret"',
        'check_node_api_http_addr = "http://10.0.0.1:13413"',
        'owner_api_include_foreign = true',
        'data_file_dir = "data"',
        'tls_certificate_file = "c.pem"',
        'tls_certificate_key = "k.pem"',
        'unknown_key = 1',
        '[logging]',
        'stdout_log_level = "WARN"',
        'log_max_sise = 5',
      ].join('\n'),
      'floonet',
    );
    // Ignored, and named with its line (and the key it most resembles).
    assert.deepEqual(c.notices, [
      { file: FILE, key: 'wallet.unknown_key', line: 13, kind: 'unknown', closest: null },
      {
        file: FILE,
        key: 'logging.log_max_sise',
        line: 16,
        kind: 'unknown',
        closest: 'log_max_size',
      },
    ]);
    assert.equal(c.apiListenInterface, '0.0.0.0');
    assert.equal(c.apiListenPort, 4000);
    assert.equal(c.ownerApiListenPort, 4001);
    assert.equal(c.apiSecretPath, join(TOP, '.owner_api_secret'));
    assert.equal(c.nodeApiSecretPath, '/etc/node_secret');
    assert.equal(c.checkNodeApiHttpAddr, 'http://10.0.0.1:13413');
    assert.equal(c.ownerApiIncludeForeign, true);
    assert.equal(c.dataFileDir, join(TOP, 'data'));
    assert.equal(c.tlsCertificateFile, join(TOP, 'c.pem'));
    assert.equal(c.logging.stdoutLogLevel, 'Warning');
  });

  it('owner_api_allowed_origins: serialized origins; node_api_username: a Basic user', () => {
    const c = parse(
      [
        '[wallet]',
        'owner_api_allowed_origins = ["http://localhost:3000", "https://[::1]:8443"]',
        'node_api_username = "epic"',
      ].join('\n'),
    );
    assert.deepEqual(c.ownerApiAllowedOrigins, ['http://localhost:3000', 'https://[::1]:8443']);
    assert.equal(c.nodeApiUsername, 'epic');
    const bad: [string, string][] = [
      [
        'owner_api_allowed_origins = ["http://localhost:3000/"]',
        'wallet.owner_api_allowed_origins[0]: expected an origin such as "http://localhost:3000", got "http://localhost:3000/"',
      ],
      [
        'owner_api_allowed_origins = ["http://a.example", "*"]',
        'wallet.owner_api_allowed_origins[1]: expected an origin such as "http://localhost:3000", got "*"',
      ],
      [
        'owner_api_allowed_origins = ["null"]',
        'wallet.owner_api_allowed_origins[0]: expected an origin such as "http://localhost:3000", got "null"',
      ],
      [
        'owner_api_allowed_origins = "http://localhost:3000"',
        'wallet.owner_api_allowed_origins: expected an array, got a string',
      ],
      [
        'owner_api_allowed_origins = [3000]',
        'wallet.owner_api_allowed_origins[0]: expected a string, got an integer',
      ],
      [
        'node_api_username = "a:b"',
        'wallet.node_api_username: expected a user name without ":", got "a:b"',
      ],
      [
        'node_api_username = ""',
        'wallet.node_api_username: expected a user name without ":", got ""',
      ],
    ];
    for (const [line, message] of bad) {
      assert.throws(
        () => parse(`[wallet]\n${line}`),
        (e) => e instanceof ConfigError && e.message.endsWith(message),
        line,
      );
    }
  });

  it('owner_api_interface is an alias of owner_api_listen_interface; both is an error', () => {
    assert.equal(
      parse('[wallet]\nowner_api_interface = "0.0.0.0"').ownerApiListenInterface,
      '0.0.0.0',
    );
    assert.equal(
      parse('[wallet]\nowner_api_listen_interface = "::1"').ownerApiListenInterface,
      '::1',
    );
    assert.throws(
      () =>
        parse('[wallet]\nowner_api_interface = "0.0.0.0"\nowner_api_listen_interface = "0.0.0.0"'),
      /set only one of/,
    );
  });

  it('refuses what cannot run, naming file and key', () => {
    const cases: [string, RegExp][] = [
      [
        '[wallet]\napi_listen_port = 70000',
        /wallet\.api_listen_port: expected an integer from 0 to 65535/,
      ],
      ['[wallet]\nchain_type = "Floonet"', /wallet\.chain_type: Floonet does not match/],
      ['[wallet]\nchain_type = "Moon"', /unknown chain type/],
      ['[wallet]\ncheck_node_api_http_addr = "ftp://x"', /expected an http/],
      ['[wallet]\napi_listen_interface = "localhost"', /expected an IP address/],
      ['[wallet]\ntls_certificate_file = "c.pem"', /Private key for certificate is not set/],
      ['[wallet]\nowner_api_include_foreign = "yes"', /expected a boolean, got a string/],
      ['[walet]\n', /missing the \[wallet\] table/],
      ['[wallet\n', /invalid TOML at line 1/],
    ];
    for (const [text, re] of cases) {
      assert.throws(
        () => parse(text),
        (e) => e instanceof ConfigError && re.test(e.message),
        text,
      );
    }
  });
});

describe('writing and reading files', () => {
  it('the written default file reads back to the same config, on every network', () => {
    for (const chain of ['mainnet', 'floonet', 'usernet', 'automated'] as const) {
      const d = defaultWalletConfig(chain, TOP);
      const text = renderWalletToml(d);
      assert.deepEqual(parse(text, chain), d);
      assert.match(text, /^owner_api_listen_interface = "127\.0\.0\.1"$/m);
      assert.match(text, /^owner_api_allowed_origins = \[\]$/m);
      assert.match(text, /^node_api_username = "node"$/m);
      assert.match(text, /^#api_secret_path = "\.owner_api_secret"$/m);
    }
  });

  it('a changed config survives the round trip too', () => {
    const c: WalletConfig = {
      ...defaultWalletConfig('usernet', TOP),
      apiSecretPath: '/s',
      ownerApiAllowedOrigins: ['http://localhost:3000', 'http://127.0.0.1:8080'],
      nodeApiUsername: 'epic',
      tlsCertificateFile: '/c',
      tlsCertificateKey: '/k',
      ownerApiIncludeForeign: true,
    };
    assert.deepEqual(parse(renderWalletToml(c), 'usernet'), c);
  });

  it('write refuses to overwrite; read is bounded; lookup prefers the working directory', () => {
    const top = mkdtempSync(join(tmpdir(), 'mw-wallet-toml-'));
    const cwd = mkdtempSync(join(tmpdir(), 'mw-wallet-cwd-'));
    dirs.push(top, cwd);
    const file = join(top, WALLET_CONFIG_FILE_NAME);
    const d = defaultWalletConfig('usernet', top);
    assert.equal(loadWalletConfig({ topDir: top, chain: 'usernet', cwd }).file, null);
    assert.equal(writeWalletConfigFile(file, d), true);
    assert.equal(writeWalletConfigFile(file, d), false);
    assert.deepEqual(loadWalletConfig({ topDir: top, chain: 'usernet', cwd }), { config: d, file });
    writeFileSync(join(cwd, WALLET_CONFIG_FILE_NAME), '[wallet]\napi_listen_port = 5\n');
    const local = loadWalletConfig({ topDir: top, chain: 'usernet', cwd });
    assert.equal(local.config.apiListenPort, 5);
    writeFileSync(file, 'x'.repeat(1024 * 1024 + 1));
    assert.throws(() => readWalletConfigFile(file, 'usernet', top), /larger than 1048576 bytes/);
  });
});
