// The two executables as a user runs them: the compiled entry points next to this test's build.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { readConfigFile } from '../../config/load.js';
import { findRandomXAddon } from '../../jobs/randomx_addon.js';
import { REPO_ROOT } from '../support/paths.js';

const version = (
  JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;
// The build under test (dist/ or another outDir), not whatever bin/ happens to point at.
const CLI_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'cli');
const root = mkdtempSync(join(tmpdir(), 'mwnode-cli-'));
after(() => rmSync(root, { recursive: true, force: true }));

interface Run {
  code: number | null;
  out: string;
  err: string;
}

function run(bin: string, args: readonly string[], cwd = root): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(CLI_DIR, `${bin}.js`), ...args], {
      cwd,
      // A home of its own, so nothing can touch the real ~/.mwnode.
      env: { ...process.env, HOME: root },
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
    child.on('error', fail);
    child.on('close', (code) => done({ code, out, err }));
  });
}

let dirs = 0;
const freshDir = (): string => mkdtempSync(join(root, `run${++dirs}-`));

function listen(
  handler: Parameters<typeof createServer>[1],
): Promise<{ server: Server; port: number }> {
  const server = createServer(handler);
  return new Promise((done) => {
    server.listen(0, '127.0.0.1', () =>
      done({ server, port: (server.address() as AddressInfo).port }),
    );
  });
}

/** A port nobody listens on: bound, then released. */
async function freePort(): Promise<number> {
  const { server, port } = await listen(() => {});
  await new Promise((done) => server.close(done));
  return port;
}

describe('executables', () => {
  for (const bin of ['mwnode', 'mwwallet']) {
    it(`${bin} --version / --help`, async () => {
      assert.deepEqual(await run(bin, ['--version']), {
        code: 0,
        out: `${bin} ${version}\n`,
        err: '',
      });
      const help = await run(bin, ['--help']);
      assert.equal(help.code, 0);
      assert.equal(help.err, '');
      assert.ok(help.out.startsWith(`${bin} ${version}\n`));
      assert.ok(help.out.includes(`Usage: ${bin} [options] [command]\n`));
    });
  }

  it('unknown options and commands exit 2 with one line on stderr', async () => {
    assert.deepEqual(await run('mwwallet', ['--frobnicate']), {
      code: 2,
      out: '',
      err: `mwwallet: unknown option '--frobnicate' (see mwwallet --help)\n`,
    });
    assert.deepEqual(await run('mwwallet', ['frobnicate']), {
      code: 2,
      out: '',
      err: `mwwallet: unknown command 'frobnicate' (see mwwallet --help)\n`,
    });
    assert.deepEqual(await run('mwnode', ['--frobnicate']), {
      code: 2,
      out: '',
      err: `mwnode: unknown option '--frobnicate' (see mwnode --help)\n`,
    });
    assert.deepEqual(await run('mwnode', ['frobnicate']), {
      code: 2,
      out: '',
      err: `mwnode: unknown command 'frobnicate' (see mwnode --help)\n`,
    });
    assert.deepEqual(await run('mwnode', ['--floonet', '--auto', 'server', 'run']), {
      code: 2,
      out: '',
      err: `mwnode: option '--floonet' cannot be used with option '--auto' (see mwnode --help)\n`,
    });
  });

  it('mwnode without arguments prints its help', async () => {
    const res = await run('mwnode', []);
    assert.deepEqual([res.code, res.err], [0, '']);
    assert.equal(res.out, (await run('mwnode', ['--help'])).out);
    for (const cmd of [
      'server [options]',
      'client',
      '--floonet',
      '--usernet',
      '--auto',
      '--home <dir>',
    ]) {
      assert.ok(res.out.includes(`  ${cmd} `), cmd);
    }
    assert.ok(
      res.out.endsWith(
        '\nStart the node with `mwnode server run` (a bare `epic` starts its server; a bare\n`mwnode` prints this help).\n',
      ),
    );
  });

  it('mwnode client --help lists exactly the client commands that exist', async () => {
    const res = await run('mwnode', ['client', '--help']);
    assert.equal(res.code, 0);
    const commands = res.out
      .split('Commands:\n')[1]
      ?.split('\n')
      .filter((l) => l.startsWith('  '))
      .map((l) => l.trim().split(' ')[0]);
    assert.deepEqual(commands, ['status', 'listconnectedpeers', 'ban', 'unban', 'help']);
  });
});

describe('mwnode pow randomx', () => {
  const addonBuilt = findRandomXAddon() !== null;

  it("prints Epic's RandomX hash of a vector (reference pow §10.3)", {
    skip: !addonBuilt,
  }, async () => {
    assert.deepEqual(await run('mwnode', ['pow', 'randomx', '00'.repeat(32), '00'.repeat(128)]), {
      code: 0,
      out: '3adb57cd3a05db9dd2139472dbbf647a3133e04353b8324969ff3ae62314e8f4\n',
      err: '',
    });
  });

  it('refuses arguments that are not hex, and missing ones, with exit 2', async () => {
    assert.deepEqual(await run('mwnode', ['pow', 'randomx', 'zz', '00']), {
      code: 2,
      out: '',
      err: 'mwnode: KEY_HEX is not hexadecimal: zz (see mwnode --help)\n',
    });
    assert.deepEqual(await run('mwnode', ['pow', 'randomx', '00', '123']), {
      code: 2,
      out: '',
      err: 'mwnode: INPUT_HEX is not hexadecimal: 123 (see mwnode --help)\n',
    });
    const missing = await run('mwnode', ['pow', 'randomx', '00']);
    assert.equal(missing.code, 2);
    assert.equal(
      missing.err,
      "mwnode: missing required argument 'INPUT_HEX' (see mwnode --help)\n",
    );
  });
});

describe('mwnode server', () => {
  it('config writes ./mwnode-server.toml once and refuses to overwrite it', async () => {
    const cwd = freshDir();
    const file = join(cwd, 'mwnode-server.toml');
    const home = join(cwd, 'home');
    assert.deepEqual(await run('mwnode', ['--auto', '--home', home, 'server', 'config'], cwd), {
      code: 0,
      out: `${file} written with the defaults of AutomatedTesting\n`,
      err: '',
    });
    const config = readConfigFile(file, 'automated', join(home, 'auto'));
    assert.deepEqual(
      [config.chainType, config.apiHttpAddr, config.dbRoot, config.apiSecretPath],
      [
        'automated',
        { host: '127.0.0.1', port: 33413 },
        join(cwd, 'chain_data'),
        join(cwd, '.api_secret'),
      ],
    );
    const text = readFileSync(file, 'utf8');
    assert.deepEqual(await run('mwnode', ['server', 'config'], cwd), {
      code: 1,
      out: '',
      err: 'mwnode: mwnode-server.toml already exists in the current directory; remove it first\n',
    });
    assert.equal(readFileSync(file, 'utf8'), text);
  });

  it('run stops with the config error before starting the node', async () => {
    const cwd = freshDir();
    writeFileSync(join(cwd, 'bad.toml'), '[server]\napi_http_addr = "nowhere"\n');
    assert.deepEqual(await run('mwnode', ['server', 'run', '--config_file', 'bad.toml'], cwd), {
      code: 1,
      out: '',
      err: `mwnode: ${join(cwd, 'bad.toml')}: server.api_http_addr: expected an "ip:port" address such as "127.0.0.1:3413", got "nowhere"\n`,
    });
    assert.deepEqual(await run('mwnode', ['server', '-c', 'missing.toml', 'run'], cwd), {
      code: 1,
      out: '',
      err: `mwnode: ${join(cwd, 'missing.toml')}: file does not exist\n`,
    });
  });
});

describe('mwnode client status', () => {
  const SECRET = 'abcdefghij0123456789';
  const STATUS =
    '{"protocol_version":2,"user_agent":"MW/Epic 4.0.0","connections":8,"tip":{"height":371553,' +
    `"last_block_pushed":"${'ab'.repeat(32)}","prev_block_to_last":"${'cd'.repeat(32)}",` +
    '"total_difficulty":{"randomx":18446744073709551615,"progpow":0}},"sync_status":"header_sync",' +
    '"sync_info":{"current_height":10,"highest_height":20},"supply":5944848,"max_supply":21000000,' +
    '"blocks_to_next_halving":109407}';

  function configDir(port: number): string {
    const cwd = freshDir();
    writeFileSync(
      join(cwd, 'mwnode-server.toml'),
      `[server]\napi_http_addr = "127.0.0.1:${port}"\napi_secret_path = ".api_secret"\n`,
    );
    writeFileSync(join(cwd, '.api_secret'), SECRET);
    return cwd;
  }

  it('prints the status, sending the Basic credential of the secret file', async () => {
    const seen: (string | undefined)[] = [];
    const { server, port } = await listen((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end(STATUS);
    });
    try {
      const res = await run('mwnode', ['client', 'status'], configDir(port));
      assert.deepEqual(seen, ['GET /v1/status Basic bm9kZTphYmNkZWZnaGlqMDEyMzQ1Njc4OQ==']);
      assert.deepEqual(res, {
        code: 0,
        err: '',
        out: [
          'Node status',
          '--------------------------',
          'Protocol version: 2',
          'User agent: MW/Epic 4.0.0',
          'Connections: 8',
          'Chain height: 371553',
          `Last block hash: ${'ab'.repeat(32)}`,
          `Previous block hash: ${'cd'.repeat(32)}`,
          'Total difficulty: progpow 0, randomx 18446744073709551615',
          'Sync status: header_sync (current_height 10, highest_height 20)',
          'Supply: 5944848 of 21000000 EPIC',
          'Blocks to next halving: 109407',
          '',
        ].join('\n'),
      });
    } finally {
      server.close();
    }
  });

  it("--json prints the node's status as JSON, u64 values exact", async () => {
    const { server, port } = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(STATUS);
    });
    try {
      const res = await run('mwnode', ['client', 'status', '--json'], configDir(port));
      assert.deepEqual([res.code, res.err], [0, '']);
      assert.ok(res.out.includes('"randomx": 18446744073709551615'));
      assert.equal(res.out.replace(/\s+/g, ''), STATUS.replace(/\s+/g, ''));
    } finally {
      server.close();
    }
  });

  it('--watch follows the sync on the same credential until no_sync', async () => {
    const answers = [STATUS, STATUS, STATUS.replace('"header_sync"', '"no_sync"')];
    let n = 0;
    const { server, port } = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(answers[n++]);
    });
    try {
      const res = await run('mwnode', ['client', 'status', '--watch'], configDir(port));
      assert.equal(res.code, 0);
      assert.match(
        res.out,
        /Blocks to next halving: 109407\nheader_sync 10\/20 headers, 0\/s\nSync status: no_sync\n$/,
      );
      assert.equal(n, 3);
    } finally {
      server.close();
    }
  });

  it('a refused secret exits 1', async () => {
    const { server, port } = await listen((_req, res) => res.writeHead(401).end());
    try {
      assert.deepEqual(await run('mwnode', ['client', 'status'], configDir(port)), {
        code: 1,
        out: '',
        err: 'mwnode: the node refused the API secret (HTTP 401); check api_secret_path\n',
      });
    } finally {
      server.close();
    }
  });

  it('nothing listening exits 1 with a clear message', async () => {
    const port = await freePort();
    assert.deepEqual(await run('mwnode', ['client', 'status'], configDir(port)), {
      code: 1,
      out: '',
      err: `mwnode: cannot reach the node at http://127.0.0.1:${port}: connection refused (is \`mwnode server run\` running?)\n`,
    });
  });
});
