// Makes a fresh clone runnable: system packages (when root), npm dependencies, then the build.
// Idempotent and quick when nothing is missing, so `npm test` and `npm start` call it every time.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { log, root, run, sha256File, writeText } from './lib.mjs';

// Debian packages the build or the tests need (Node, npm, g++ and python3 are on the machine).
// iproute2: `ip netns` and `ss` for the test networks of test/support/netns.ts; nginx: the
// scale-out test (test/e2e/scale_out_nginx.test.ts, docs/deploy.md); chromium: the status page's
// browser test (test/e2e/dashboard_browser.test.ts), driven by playwright-core, which downloads none.
const SYSTEM_PACKAGES = ['iproute2', 'nginx', 'chromium'];

function checkNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 10)) {
    log(`Node.js >= 20.10 is required, found ${process.versions.node}`);
    process.exit(1);
  }
}

function missingSystemPackages() {
  return SYSTEM_PACKAGES.filter((pkg) => {
    const res = spawnSync('dpkg-query', ['-W', `-f=\${Status}`, pkg], { encoding: 'utf8' });
    return res.status !== 0 || !res.stdout.includes('install ok installed');
  });
}

function ensureSystemPackages() {
  const missing = missingSystemPackages();
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    log(`missing Debian packages: ${missing.join(' ')} (run as root or install them)`);
    process.exit(1);
  }
  log(`installing Debian packages: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-q'], { env });
  run('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...missing], { env });
}

// The lock file's hash is stamped into node_modules after `npm ci`; a different hash means stale.
function ensureNpmDependencies() {
  const stamp = join(root, 'node_modules', '.mwnode-lock-sha256');
  const want = sha256File(join(root, 'package-lock.json'));
  const have = existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : '';
  if (have === want) return;
  log(have ? 'package-lock.json changed: running npm ci' : 'installing dependencies: npm ci');
  run('npm', ['ci', '--no-audit', '--no-fund'], { stdin: 'ignore' });
  writeText(stamp, `${want}\n`);
}

export function setup() {
  checkNode();
  ensureSystemPackages();
  ensureNpmDependencies();
}

if (import.meta.url === `file://${process.argv[1]}`) setup();
