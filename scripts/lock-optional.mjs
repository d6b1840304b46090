// `node scripts/lock-optional.mjs` after any `npm install`: the registry mirror on our machines
// carries only the Linux builds of packages that ship per-platform binaries, so npm leaves the
// other platforms' optional dependencies out of package-lock.json and `npm ci` then rejects the
// lock. This adds the missing entries, with os/cpu read from the package name, so npm skips them.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './lib.mjs';

const OSES = [
  'darwin',
  'win32',
  'linux',
  'android',
  'freebsd',
  'openbsd',
  'netbsd',
  'sunos',
  'aix',
];
const CPUS = ['arm64', 'x64', 'arm', 'ia32', 'riscv64', 's390x', 'ppc64', 'loong64', 'wasm32'];

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OSES.includes(p));
  const cpu = parts.find((p) => CPUS.includes(p));
  const entry = {};
  if (cpu) entry.cpu = [cpu];
  if (parts.includes('musl')) entry.libc = ['musl'];
  else if (os === 'linux' && (parts.includes('gnu') || parts.includes('glibc')))
    entry.libc = ['glibc'];
  if (os) entry.os = [os];
  return entry;
}

const path = join(root, 'package-lock.json');
const lock = JSON.parse(readFileSync(path, 'utf8'));
const packages = lock.packages;
let added = 0;
for (const [key, pkg] of Object.entries({ ...packages })) {
  for (const [dep, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    const nested = `${key}/node_modules/${dep}`;
    const hoisted = `node_modules/${dep}`;
    if (packages[nested] || packages[hoisted]) continue;
    const platform = platformOf(dep);
    if (!platform.os) continue; // not a per-platform binary package: leave it to npm
    packages[hoisted] = { version, ...(pkg.dev ? { dev: true } : {}), optional: true, ...platform };
    added++;
  }
}
const sorted = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)),
);
lock.packages = sorted;
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
process.stderr.write(
  `[mwnode] package-lock.json: ${added} platform entr${added === 1 ? 'y' : 'ies'} added\n`,
);
