// Builds the native addons with node-gyp, for `npm ci` (package.json "install") and `npm run
// build`: `node native/build.mjs [--if-needed] [--strict] [name…]` (default: every addon). A
// failed build is reported but does not fail the install, since the node runs without either
// addon (see each one's `missing` line); `--strict` makes a failure fatal. `--if-needed` skips an
// addon whose .node file is newer than its binding.gyp and every source.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

const ADDONS = [
  {
    name: 'randomx',
    jobsEnv: 'RANDOMX_JOBS',
    missing: 'RandomX verification will be unavailable',
  },
  {
    name: 'secp256k1',
    jobsEnv: 'SECP256K1_JOBS',
    missing: 'verification falls back to the JavaScript arithmetic (slower, same answers)',
  },
  {
    name: 'sockets',
    jobsEnv: 'SOCKETS_JOBS',
    missing: 'stratum jobs are written by one thread, one socket after another (slower)',
  },
];

/** node-gyp as npm provides it: npm exports its path to lifecycle scripts; else npm's bundled copy. */
function nodeGyp() {
  const bundled = join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm');
  const candidates = [
    process.env.npm_config_node_gyp,
    join(bundled, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  ];
  return candidates.find((p) => p && existsSync(p));
}

function upToDate(dir, file) {
  if (!existsSync(file)) return false;
  const built = statSync(file).mtimeMs;
  const sources = [
    join(dir, 'binding.gyp'),
    ...readdirSync(join(dir, 'src')).map((f) => join(dir, 'src', f)),
  ];
  return sources.every((f) => statSync(f).mtimeMs <= built);
}

/** Runs node-gyp in `dir`; returns why it failed, or undefined. */
function compile(dir, jobs) {
  const gyp = nodeGyp();
  if (!gyp) return 'node-gyp not found (it ships with npm)';
  const args = [gyp, 'rebuild', '--jobs', jobs];
  // Distribution builds of Node keep their headers under /usr/include/node; npm passes
  // npm_config_nodedir from .npmrc, a direct run does not.
  if (!process.env.npm_config_nodedir && existsSync('/usr/include/node/node_api.h')) {
    args.push('--nodedir=/usr');
  }
  const res = spawnSync(process.execPath, args, { cwd: dir, stdio: 'inherit' });
  if (res.error) return `node-gyp failed to start: ${res.error.message}`;
  if (res.status !== 0) return `node-gyp exited with ${res.status ?? res.signal}`;
  return undefined;
}

/** Builds one addon; returns false when it failed. */
function build(addon, ifNeeded) {
  const dir = join(here, addon.name);
  const file = join(dir, 'build', 'Release', `${addon.name}.node`);
  const say = (msg) => process.stderr.write(`[${addon.name}] ${msg}\n`);
  if (ifNeeded && upToDate(dir, file)) return true;
  const failure = compile(dir, process.env[addon.jobsEnv] ?? '2');
  if (failure) {
    say(`addon not built: ${failure}; ${addon.missing}`);
    return false;
  }
  say(`built build/Release/${addon.name}.node`);
  return true;
}

const flags = new Set(process.argv.slice(2).filter((a) => a.startsWith('--')));
const names = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const unknown = names.filter((n) => !ADDONS.some((a) => a.name === n));
if (unknown.length > 0) {
  process.stderr.write(`unknown addon(s): ${unknown.join(', ')}\n`);
  process.exit(2);
}
const chosen = ADDONS.filter((a) => names.length === 0 || names.includes(a.name));
const ok = chosen.map((a) => build(a, flags.has('--if-needed'))).every(Boolean);
if (!ok && flags.has('--strict')) process.exit(1);
