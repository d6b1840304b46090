// Mainnet through the real node process (issue 16, item 3). With an empty home and the default
// configuration — only its API port moved to a free one and seeding off, so the test dials
// nothing — the node starts without Epic's foundation.json, warns about it once, and serves the
// mainnet genesis. Every start-up failure is one `mwnode: …` line and exit 1, no stack trace.
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { defaultServerConfig } from '../../config/defaults.js';
import { CONFIG_FILE_NAME, ensureNetworkDir } from '../../config/home.js';
import { writeConfigFile } from '../../config/load.js';
import {
  basic,
  expectStartFailure,
  type NodeOptions,
  type NodeProcess,
  removeHome,
  spawnNode,
  tempHome,
} from '../support/node_process.js';

const GENESIS_MAIN = '454018a56d86e37611bdcabc7de670305c3f3dc9675e314b437f1adc29430851';
const MAINNET_SHA = '5a3a7584127dd31fba18eaeff1c551bfaa74b4e50e537a1e1904fe6730b17f5c';

/** The stderr lines that are structured log events named `event`, without their timestamps. */
function logEvents(stderr: string, event: string): unknown[] {
  return stderr
    .split('\n')
    .filter((l) => l.includes(`"event":"${event}"`))
    .map((l) => {
      const { ts: _ts, ...rest } = JSON.parse(l) as Record<string, unknown>;
      return rest;
    });
}

describe('mainnet with the default configuration and an empty home', () => {
  let home: string;
  let netDir: string;
  let node: NodeProcess;
  let ignoredAt = 0;

  before(async () => {
    home = tempHome();
    netDir = ensureNetworkDir(home, 'mainnet');
    const defaults = defaultServerConfig('mainnet', netDir);
    const configFile = join(netDir, CONFIG_FILE_NAME);
    writeConfigFile(configFile, {
      ...defaults,
      apiHttpAddr: { host: '127.0.0.1', port: 0 },
      p2p: { ...defaults.p2p, host: '127.0.0.1', port: 0, seedingType: 'None' },
    });
    // A misspelt key in the last table ([logging], which the written file ends with).
    const written = readFileSync(configFile, 'utf8');
    appendFileSync(configFile, 'log_to_stdot = true\n');
    ignoredAt = written.split('\n').length; // the first appended line
    node = await spawnNode({ home, configFile, chainFlag: null });
  });
  after(async () => {
    await node?.stop();
    if (home !== undefined) removeHome(home);
  });

  it('serves GET /v1/chain on the mainnet genesis', async () => {
    const secret = readFileSync(join(netDir, '.api_secret'), 'utf8');
    const r = await fetch(`${node.url}/v1/chain`, { headers: { authorization: basic(secret) } });
    assert.equal(r.status, 200);
    assert.deepEqual(await r.json(), {
      height: 0,
      last_block_pushed: GENESIS_MAIN,
      prev_block_to_last: '0'.repeat(64),
      total_difficulty: { cuckaroo: 4, cuckatoo: 16384, randomx: 4194304, progpow: 1073741824 },
    });
  });

  it('names the keys of its file it ignores, once, with their line', () => {
    const file = join(netDir, CONFIG_FILE_NAME);
    assert.deepEqual(logEvents(node.stderr(), 'config_key_ignored'), [
      {
        level: 'warn',
        event: 'config_key_ignored',
        key: 'logging.log_to_stdot',
        kind: 'unknown',
        file,
        line: ignoredAt,
        closest: 'log_to_stdout',
        message: `${file} line ${ignoredAt}: unknown key logging.log_to_stdot (did you mean log_to_stdout?): ignored`,
      },
    ]);
  });

  it("warns once at start-up that foundation heights need Epic's foundation.json", () => {
    assert.deepEqual(logEvents(node.stderr(), 'foundation_missing'), [
      {
        level: 'warn',
        event: 'foundation_missing',
        foundation_path: null,
        message: `blocks at foundation heights (every 1440th) cannot be validated or built without Epic's foundation.json (SHA-256 ${MAINNET_SHA}); [server] foundation_path is not set`,
      },
    ]);
    assert.deepEqual(logEvents(node.stderr(), 'listening').length, 1);
    assert.match(
      node.stderr(),
      /"event":"listening","addr":"127\.0\.0\.1:\d+","tls":false,"chain":"mainnet"/,
    );
  });
});

describe('a start-up failure is one line on stderr and exit 1', () => {
  let home: string;
  let blocker: Server;

  before(async () => {
    home = tempHome();
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  });
  after(() => {
    blocker?.close();
    if (home !== undefined) removeHome(home);
  });

  /** A refused start whose whole stderr is `lines`, each `mwnode: …`. */
  async function refused(opts: NodeOptions, ...lines: string[]): Promise<void> {
    const { code, stderr } = await expectStartFailure({ home, ...opts });
    assert.equal(code, 1);
    assert.equal(stderr, lines.map((l) => `mwnode: ${l}\n`).join(''));
  }

  /** What `server run` says first once it has read the configuration. */
  const using = () => `using the configuration in ${join(home, 'mwnode-server.toml')}`;

  it('the API port is in use', async () => {
    const { port } = blocker.address() as { port: number };
    await refused(
      { serverLines: [`api_http_addr = "127.0.0.1:${port}"`] },
      using(),
      `cannot listen on 127.0.0.1:${port}: the port is in use or the address is not one of this machine's`,
    );
  });

  it('a bad configuration value (refused before it is used)', async () => {
    await refused(
      { serverLines: ['foundation_path = 5'] },
      `${join(home, 'mwnode-server.toml')}: server.foundation_path: expected a string, got an integer`,
    );
  });

  it('a foundation file that cannot be read', async () => {
    const dir = join(home, 'foundation-dir');
    mkdirSync(dir, { recursive: true });
    await refused(
      { serverLines: [`foundation_path = "${dir}"`] },
      using(),
      `actor chain failed to start: foundation file ${dir}: is a directory`,
    );
  });

  it('a mainnet foundation file with the wrong hash names both hashes', async () => {
    const file = join(home, 'foundation.json');
    writeFileSync(file, '{}\n');
    await refused(
      { chain: 'mainnet', serverLines: [`foundation_path = "${file}"`] },
      using(),
      `actor chain failed to start: foundation file ${file}: SHA-256 (CRLF→LF) is ca3d163bab055381827226140568f3bef7eaac187cebd76878e0b63e9e442356, expected ${MAINNET_SHA}`,
    );
  });
});
