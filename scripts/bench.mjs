// `npm run bench -- <name>`: build, then run bench/<name>.ts (compiled); results land in bench/results/.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from './build.mjs';
import { log, root, run } from './lib.mjs';
import { setup } from './setup.mjs';

const name = process.argv[2];
// Each top-level file of bench/ is one benchmark; bench/lib/ holds what they share.
const names = readdirSync(join(root, 'bench'))
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.slice(0, -3));
if (!name || !names.includes(name)) {
  log(`usage: npm run bench -- <name>   (one of: ${names.join(', ')})`);
  process.exit(2);
}
setup();
build();
const entry = join(root, 'dist', 'bench', `${name}.js`);
if (!existsSync(entry)) {
  log(`${entry} was not built`);
  process.exit(1);
}
run(process.execPath, [entry, ...process.argv.slice(3)]);
