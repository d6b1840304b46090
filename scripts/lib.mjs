// Helpers shared by the npm scripts. Plain JavaScript: these run before anything is built.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = dirname(dirname(fileURLToPath(import.meta.url)));

export function log(msg) {
  process.stderr.write(`[mwnode] ${msg}\n`);
}

/** Run a command in the repository root; exit with its status when it fails. */
export function run(cmd, args, { onFailure, ...opts } = {}) {
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
  if (res.error) {
    log(`${cmd} failed to start: ${res.error.message}`);
    process.exit(1);
  }
  if (res.status !== 0) {
    log(`${brief(cmd, args)} exited with ${res.status ?? res.signal}`);
    if (onFailure) onFailure();
    process.exit(res.status ?? 1);
  }
}

// CI keeps only the tail of the output: a long command line must not push the failures out of it.
function brief(cmd, args) {
  const shown = args.slice(0, 4).join(' ');
  return args.length > 4
    ? `${cmd} ${shown} … (${args.length - 4} more arguments)`
    : `${cmd} ${shown}`;
}

/** Every file under `dir` whose name ends with `suffix`, sorted. */
export function walk(dir, suffix) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p, suffix));
    else if (p.endsWith(suffix)) out.push(p);
  }
  return out.sort();
}

export function sha256File(path) {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

export function writeText(path, text) {
  writeFileSync(path, text);
}
