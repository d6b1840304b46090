// Builds the RandomX addon (build/Release/randomx.node) with node-gyp, for `npm ci` / `npm run
// build`. A failed build is reported but does not fail the install: without the addon the node
// starts and reports RandomX verification as unavailable. `--strict` makes a failure fatal;
// `--if-needed` skips the build when the addon is newer than binding.gyp and every source.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const strict = process.argv.includes('--strict');
const ifNeeded = process.argv.includes('--if-needed');
const addon = join(here, 'build', 'Release', 'randomx.node');

function say(msg) {
  process.stderr.write(`[randomx] ${msg}\n`);
}

/** node-gyp as npm provides it: npm exports its path to lifecycle scripts; else npm's bundled copy. */
function nodeGyp() {
  const candidates = [
    process.env.npm_config_node_gyp,
    join(
      dirname(process.execPath),
      '..',
      'lib',
      'node_modules',
      'npm',
      'node_modules',
      'node-gyp',
      'bin',
      'node-gyp.js',
    ),
  ];
  return candidates.find((p) => p && existsSync(p));
}

function upToDate() {
  if (!existsSync(addon)) return false;
  const built = statSync(addon).mtimeMs;
  const sources = [
    join(here, 'binding.gyp'),
    ...readdirSync(join(here, 'src')).map((f) => join(here, 'src', f)),
  ];
  return sources.every((f) => statSync(f).mtimeMs <= built);
}

function main() {
  const gyp = nodeGyp();
  if (!gyp) return 'node-gyp not found (it ships with npm)';
  const args = [gyp, 'rebuild', '--jobs', process.env.RANDOMX_JOBS ?? '2'];
  // Distribution builds of Node keep their headers under /usr/include/node; npm passes
  // npm_config_nodedir from .npmrc, a direct run does not.
  if (!process.env.npm_config_nodedir && existsSync('/usr/include/node/node_api.h')) {
    args.push('--nodedir=/usr');
  }
  const res = spawnSync(process.execPath, args, { cwd: here, stdio: 'inherit' });
  if (res.error) return `node-gyp failed to start: ${res.error.message}`;
  if (res.status !== 0) return `node-gyp exited with ${res.status ?? res.signal}`;
  return undefined;
}

const failure = ifNeeded && upToDate() ? 'skip' : main();
if (failure === 'skip') {
  // nothing to do
} else if (failure) {
  say(`addon not built: ${failure}; RandomX verification will be unavailable`);
  if (strict) process.exit(1);
} else {
  say('built build/Release/randomx.node');
}
