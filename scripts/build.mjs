// Compiles TypeScript into dist/ (a clean build, so deleted sources leave no stale output).
// Native addons will be built here as well once native/ holds any.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { log, root, run } from './lib.mjs';

export function build() {
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  log('typescript: tsc -p tsconfig.json');
  run(process.execPath, [
    join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
    '-p',
    'tsconfig.json',
  ]);
}

if (import.meta.url === `file://${process.argv[1]}`) build();
