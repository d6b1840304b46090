// Compiles TypeScript into dist/ (a clean build, so deleted sources leave no stale output) and
// the native addons when their sources changed since `npm ci` built them. Under CI a failed
// addon build is fatal; elsewhere the node runs without them (RandomX verification unavailable;
// signatures and range proofs verified by the slower JavaScript arithmetic).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { log, root, run } from './lib.mjs';

export function build() {
  const addonArgs = ['--if-needed', ...(process.env.CI ? ['--strict'] : [])];
  log('native: randomx, secp256k1 and sockets addons');
  run(process.execPath, [join(root, 'native', 'build.mjs'), ...addonArgs]);
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  log('typescript: tsc -p tsconfig.json');
  run(process.execPath, [
    join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
    '-p',
    'tsconfig.json',
  ]);
}

if (import.meta.url === `file://${process.argv[1]}`) build();
