// mwnode-server.toml: the defaults written per network, parsing them back, and the exact error
// for each kind of bad value.
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { chainTypeFromName, defaultServerConfig } from '../../../config/defaults.js';
import { ConfigError } from '../../../config/errors.js';
import { describeNotice } from '../../../config/key_audit.js';
import { parseServerToml } from '../../../config/server_toml.js';
import { renderServerToml } from '../../../config/template.js';
import type { ServerConfig } from '../../../config/types.js';
import { CHAIN_TYPES, type ChainType } from '../../../core/chain_type.js';

const NET = '/srv/mw/main';
const FILE = '/etc/mw/mwnode-server.toml';

function parse(text: string, chain: ChainType = 'mainnet', file = FILE): ServerConfig {
  return parseServerToml(text, { file, chain, networkDir: NET });
}

function parseError(text: string, chain: ChainType = 'mainnet'): ConfigError {
  try {
    parse(text, chain);
  } catch (err) {
    assert.ok(err instanceof ConfigError, `not a ConfigError: ${String(err)}`);
    return err;
  }
  assert.fail('parsed without error');
}

describe('server config defaults per network', () => {
  const expected = {
    mainnet: ['Mainnet', 3413, 3414, 3416, 3415, 'DNSSeed', false, 4000n, 40_000],
    floonet: ['Floonet', 13413, 13414, 13416, 13415, 'DNSSeed', false, 4000n, 40_000],
    usernet: ['UserTesting', 23413, 23414, 23416, 23415, 'None', true, 1n, 150],
    automated: ['AutomatedTesting', 33413, 33414, 33416, 33415, 'None', true, 1n, 150],
  } as const;

  for (const chain of CHAIN_TYPES) {
    it(`${chain}: generated file parses to the exact defaults`, () => {
      const dir = `/home/u/.mwnode/${chain}`;
      const text = renderServerToml(defaultServerConfig(chain, dir));
      const c = parseServerToml(text, {
        file: `${dir}/mwnode-server.toml`,
        chain,
        networkDir: dir,
      });
      const [name, api, p2p, stratum, wallet, seeding, stratumOn, rxShare, weight] =
        expected[chain];
      assert.ok(text.includes(`\nchain_type = "${name}"\n`));
      assert.equal(chainTypeFromName(name), chain);
      assert.deepEqual(c, defaultServerConfig(chain, dir));
      assert.equal(c.chainType, chain);
      assert.equal(c.networkDir, dir);
      assert.equal(c.dbRoot, `${dir}/chain_data`);
      assert.deepEqual(c.apiHttpAddr, { host: '127.0.0.1', port: api });
      assert.equal(c.apiSecretPath, `${dir}/.api_secret`);
      assert.equal(c.foreignApiSecretPath, null);
      assert.equal(c.tlsCertificateFile, null);
      assert.equal(c.tlsCertificateKey, null);
      assert.equal(c.foundationPath, null);
      assert.equal(c.runTestMiner, chain === 'usernet');
      assert.equal(c.testMinerWalletUrl, null);
      assert.ok(text.includes(`\nrun_test_miner = ${chain === 'usernet'}\n`));
      assert.ok(text.includes(`\n#test_miner_wallet_url = "http://127.0.0.1:${wallet}"\n`));
      assert.equal(c.archiveMode, false);
      assert.equal(c.chainValidationMode, 'Disabled');
      assert.equal(c.headerSyncTimeout, 10);
      assert.deepEqual([c.p2p.host, c.p2p.port, c.p2p.seedingType], ['0.0.0.0', p2p, seeding]);
      assert.deepEqual([c.p2p.seeds, c.p2p.peersAllow, c.p2p.peersDeny], [[], null, []]);
      assert.deepEqual(c.pool, {
        acceptFeeBase: 100_000n,
        maxPoolSize: 50_000,
        maxStempoolSize: 50_000,
        mineableMaxWeight: weight,
      });
      assert.deepEqual(c.dandelion, {
        epochSecs: 600,
        embargoSecs: 180,
        aggregationSecs: 30,
        stemProbability: 90,
        alwaysStemOurTxs: true,
      });
      assert.deepEqual(c.stratum, {
        enableStratumServer: stratumOn,
        stratumServerAddr: { host: '127.0.0.1', port: stratum },
        attemptTimePerBlock: 15,
        cuckatooMinimumShareDifficulty: 3n,
        randomxMinimumShareDifficulty: rxShare,
        progpowMinimumShareDifficulty: 200_000n,
        walletListenerUrl: `http://127.0.0.1:${wallet}`,
        burnReward: false,
      });
    });
  }

  it('the optional keys are written commented out', () => {
    const text = renderServerToml(defaultServerConfig('mainnet', NET));
    for (const line of [
      '#foreign_api_secret_path = ".foreign_api_secret"',
      '#tls_certificate_file = "cert.pem"',
      '#tls_certificate_key = "key.pem"',
      '#seeds = ["95.217.197.180:3414", "5.161.127.56:3414", "5.75.242.4:3414", "5.78.71.29:3414"]',
    ]) {
      assert.ok(text.includes(`\n${line}\n`), line);
    }
  });

  it('every value set away from its default survives a round trip', () => {
    const base = defaultServerConfig('floonet', NET);
    const custom: ServerConfig = {
      ...base,
      dbRoot: '/data/with "quotes" and \\ and \u007f',
      apiHttpAddr: { host: '::1', port: 8080 },
      apiSecretPath: null,
      foreignApiSecretPath: '/etc/mw/foreign',
      tlsCertificateFile: '/etc/mw/cert.pem',
      tlsCertificateKey: '/etc/mw/key.pem',
      foundationPath: '/usr/share/epic/foundation_floonet.json',
      runTestMiner: true,
      testMinerWalletUrl: 'https://wallet.example:13415/base',
      chainValidationMode: 'EveryBlock',
      archiveMode: true,
      skipSyncWait: true,
      headerSyncTimeout: 25,
      p2p: {
        ...base.p2p,
        host: '127.0.0.1',
        seedingType: 'List',
        seeds: [{ host: '10.0.0.1', port: 13414 }],
        peersAllow: [],
        peersDeny: [{ host: 'fe80::1', port: 1 }],
        peerMaxInboundCount: 7,
        peerListenerBufferCount: 0,
        capabilities: 0x3f,
      },
      pool: { ...base.pool, acceptFeeBase: 18_446_744_073_709_551_615n },
      dandelion: { ...base.dandelion, stemProbability: 0, alwaysStemOurTxs: false },
      stratum: { ...base.stratum, enableStratumServer: true, burnReward: true },
    };
    // An empty allow list is written commented out and so reads back as "no allow list".
    assert.deepEqual(parse(renderServerToml(custom), 'floonet'), {
      ...custom,
      p2p: { ...custom.p2p, peersAllow: null },
    });
  });
});

describe('server config parsing', () => {
  it('missing keys take the defaults of the chain; unknown keys and tables are ignored', () => {
    const c = parse(
      '[server]\nfrobnicate = 1\n[server.p2p_config]\nport = 5\n[logging]\nx = 1\n',
      'usernet',
    );
    assert.deepEqual(c, {
      ...defaultServerConfig('usernet', NET),
      apiSecretPath: null,
      p2p: { ...defaultServerConfig('usernet', NET).p2p, port: 5 },
      notices: [
        { file: FILE, key: 'server.frobnicate', line: 2, kind: 'unknown', closest: null },
        { file: FILE, key: 'logging.x', line: 6, kind: 'unknown', closest: null },
      ],
    });
  });

  it("reads Epic's [logging] table and our slow_request_ms; defaults are Epic's", () => {
    const d = parse('[server]\n', 'usernet');
    assert.deepEqual(d.logging, {
      logToStdout: true,
      stdoutLogLevel: 'Info',
      logToFile: false,
      fileLogLevel: 'Debug',
      logFilePath: join(NET, 'mwnode-server.log'),
      logFileAppend: true,
      logMaxSize: 16777216n,
      logMaxFiles: 32,
    });
    assert.equal(d.slowRequestMs, 1000);
    const c = parse(
      [
        '[server]',
        '[logging]',
        'log_to_stdout = false',
        'stdout_log_level = "WARN"',
        'log_to_file = true',
        'file_log_level = "Trace"',
        'log_file_path = "logs/node.log"',
        'log_file_append = false',
        'log_max_size = 4096',
        'log_max_files = 3',
        'slow_request_ms = 250',
      ].join('\n'),
      'usernet',
    );
    assert.deepEqual(c.logging, {
      logToStdout: false,
      stdoutLogLevel: 'Warning',
      logToFile: true,
      fileLogLevel: 'Trace',
      logFilePath: join(dirname(FILE), 'logs/node.log'),
      logFileAppend: false,
      logMaxSize: 4096n,
      logMaxFiles: 3,
    });
    assert.equal(c.slowRequestMs, 250);
    assert.deepEqual(c.notices, []);
    assert.throws(
      () => parse('[server]\n[logging]\nfile_log_level = "Loud"\n', 'usernet'),
      /file_log_level.*unknown level "Loud" \(expected Error, Warning, Info, Debug(,)? or Trace\)/,
    );
  });

  it('names each key it ignores: misspelt ones with the closest known key, Epic-only ones as such', () => {
    const text = [
      '# an Epic 4.0 file, edited by hand',
      '[server]',
      'chain_type = "Floonet"',
      'api_http_adr = "127.0.0.1:13413"',
      'run_tui = false',
      'archive_mod = true',
      '',
      '[server.p2p_config]',
      'seedz = ["10.0.0.1:13414"]',
      'peer_max_count = 125',
      '',
      '[server.webhook_config]',
      'nthreads = 4',
      '',
      '[server.stratum_mining_config]',
      '"burn_rewards" = true',
      '',
      '[logging]',
      'log_to_fille = true',
    ].join('\n');
    const notice = (
      key: string,
      line: number,
      kind: 'unknown' | 'unimplemented',
      closest: string | null = null,
    ) => ({ file: FILE, key, line, kind, closest });
    const c = parse(text, 'floonet');
    assert.deepEqual(c.notices, [
      notice('server.api_http_adr', 4, 'unknown', 'api_http_addr'),
      notice('server.run_tui', 5, 'unimplemented'),
      notice('server.archive_mod', 6, 'unknown', 'archive_mode'),
      notice('server.webhook_config', 12, 'unimplemented'),
      notice('server.p2p_config.seedz', 9, 'unknown', 'seeds'),
      notice('server.p2p_config.peer_max_count', 10, 'unimplemented'),
      notice('server.stratum_mining_config.burn_rewards', 16, 'unknown', 'burn_reward'),
      notice('logging.log_to_fille', 19, 'unknown', 'log_to_file'),
    ]);
    assert.equal(c.archiveMode, false, 'a misspelt key takes no effect');
    assert.deepEqual(c.notices.map(describeNotice).slice(0, 2), [
      `${FILE} line 4: unknown key server.api_http_adr (did you mean api_http_addr?): ignored`,
      `${FILE} line 5: server.run_tui is Epic's, but mwnode does not implement it: ignored`,
    ]);
    assert.equal(
      describeNotice(c.notices.at(-1) as (typeof c.notices)[number]),
      `${FILE} line 19: unknown key logging.log_to_fille (did you mean log_to_file?): ignored`,
    );
  });

  it('run_test_miner and test_miner_wallet_url override the chain defaults', () => {
    const on = parse('[server]\nrun_test_miner = true\n', 'mainnet');
    assert.deepEqual([on.runTestMiner, on.testMinerWalletUrl], [true, null]);
    const off = parse(
      '[server]\nrun_test_miner = false\ntest_miner_wallet_url = "http://127.0.0.1:23415"\n',
      'usernet',
    );
    assert.deepEqual([off.runTestMiner, off.testMinerWalletUrl], [false, 'http://127.0.0.1:23415']);
  });

  it('relative paths are taken from the directory of the file', () => {
    const c = parse(
      '[server]\ndb_root = "data"\napi_secret_path = "../s/.api_secret"\ntls_certificate_file = "./c.pem"\n',
    );
    assert.deepEqual(
      [c.dbRoot, c.apiSecretPath, c.tlsCertificateFile],
      ['/etc/mw/data', '/etc/s/.api_secret', '/etc/mw/c.pem'],
    );
  });

  it('a commented-out api_secret_path means no owner credential', () => {
    const text = renderServerToml(defaultServerConfig('mainnet', NET)).replace(
      '\napi_secret_path = ',
      '\n#api_secret_path = ',
    );
    assert.equal(parse(text).apiSecretPath, null);
  });

  it('IPv6 API address; header_sync_timeout below 1 means 10', () => {
    const c = parse('[server]\napi_http_addr = "[::1]:3413"\nheader_sync_timeout = -5\n');
    assert.deepEqual(c.apiHttpAddr, { host: '::1', port: 3413 });
    assert.equal(c.headerSyncTimeout, 10);
  });

  it('api_read_threads: absent is null (one per CPU, at most 4); 0 and 64 are taken', () => {
    assert.equal(parse('[server]\n').apiReadThreads, null);
    assert.equal(parse('[server]\napi_read_threads = 0\n').apiReadThreads, 0);
    assert.equal(parse('[server]\napi_read_threads = 64\n').apiReadThreads, 64);
  });

  const cases: [string, string, string | null, string][] = [
    [
      'host name as API address',
      '[server]\napi_http_addr = "localhost:3413"',
      'server.api_http_addr',
      'expected an "ip:port" address such as "127.0.0.1:3413", got "localhost:3413"',
    ],
    [
      'API address without port',
      '[server]\napi_http_addr = "127.0.0.1"',
      'server.api_http_addr',
      'expected an "ip:port" address such as "127.0.0.1:3413", got "127.0.0.1"',
    ],
    [
      'API port out of range',
      '[server]\napi_http_addr = "127.0.0.1:65536"',
      'server.api_http_addr',
      'expected an "ip:port" address such as "127.0.0.1:3413", got "127.0.0.1:65536"',
    ],
    [
      'unknown chain type',
      '[server]\nchain_type = "Testnet"',
      'server.chain_type',
      'unknown chain type "Testnet" (expected Mainnet, Floonet, UserTesting or AutomatedTesting)',
    ],
    [
      'chain type of another network',
      '[server]\nchain_type = "Floonet"',
      'server.chain_type',
      'Floonet does not match the network selected on the command line (Mainnet); run with --floonet or change chain_type',
    ],
    [
      'string for a boolean',
      '[server]\narchive_mode = "yes"',
      'server.archive_mode',
      'expected a boolean, got a string',
    ],
    [
      'integer for a path',
      '[server]\ndb_root = 5',
      'server.db_root',
      'expected a string, got an integer',
    ],
    ['empty path', '[server]\ndb_root = ""', 'server.db_root', 'the path is empty'],
    [
      'too many read threads',
      '[server]\napi_read_threads = 65',
      'server.api_read_threads',
      'expected an integer from 0 to 64, got 65',
    ],
    [
      'port out of range',
      '[server.p2p_config]\nport = 70000',
      'server.p2p_config.port',
      'expected an integer from 0 to 65535, got 70000',
    ],
    [
      'float for an integer',
      '[server.p2p_config]\nport = 3414.0',
      'server.p2p_config.port',
      'expected an integer, got a float',
    ],
    [
      'bad p2p host',
      '[server.p2p_config]\nhost = "any"',
      'server.p2p_config.host',
      'expected an IP address, got "any"',
    ],
    [
      'bad seed',
      '[server.p2p_config]\nseeds = ["1.2.3.4:1", 5]',
      'server.p2p_config.seeds[1]',
      'expected a string, got an integer',
    ],
    [
      'unknown seeding type',
      '[server.p2p_config]\nseeding_type = "Magic"',
      'server.p2p_config.seeding_type',
      'unknown value "Magic" (expected None, List, DNSSeed or Programmatic)',
    ],
    [
      'table expected',
      '[server]\np2p_config = 5',
      'server.p2p_config',
      'expected a table, got an integer',
    ],
    [
      'negative fee',
      '[server.pool_config]\naccept_fee_base = -1',
      'server.pool_config.accept_fee_base',
      'expected an integer from 0 to 18446744073709551615, got -1',
    ],
    [
      'stem probability above 100',
      '[server.dandelion_config]\nstem_probability = 101',
      'server.dandelion_config.stem_probability',
      'expected an integer from 0 to 100, got 101',
    ],
    [
      'wallet URL not http',
      '[server.stratum_mining_config]\nwallet_listener_url = "ftp://x"',
      'server.stratum_mining_config.wallet_listener_url',
      'expected an http:// or https:// URL, got "ftp://x"',
    ],
    [
      'test miner wallet URL not a URL',
      '[server]\ntest_miner_wallet_url = "127.0.0.1:3415"',
      'server.test_miner_wallet_url',
      'expected an http:// or https:// URL, got "127.0.0.1:3415"',
    ],
    [
      'run_test_miner not a boolean',
      '[server]\nrun_test_miner = 1',
      'server.run_test_miner',
      'expected a boolean, got an integer',
    ],
    [
      'validation mode',
      '[server]\nchain_validation_mode = "Sometimes"',
      'server.chain_validation_mode',
      'unknown value "Sometimes" (expected Disabled or EveryBlock)',
    ],
    ['no [server] table', 'chain_type = "Mainnet"', null, 'missing the [server] table'],
  ];
  for (const [name, text, key, problem] of cases) {
    it(`rejects: ${name}`, () => {
      const err = parseError(`${text}\n`);
      assert.deepEqual([err.file, err.key, err.problem], [FILE, key, problem]);
      assert.equal(
        err.message,
        key === null ? `${FILE}: ${problem}` : `${FILE}: ${key}: ${problem}`,
      );
    });
  }

  it('rejects invalid TOML with its line and column', () => {
    const err = parseError('[server]\ndb_root = "unterminated\n');
    assert.equal(err.key, null);
    assert.match(err.problem, /^invalid TOML at line 2, column \d+: \S/);
    assert.ok(!err.problem.includes('\n'));
  });
});
