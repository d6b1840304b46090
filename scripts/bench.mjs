// `npm run bench -- <name>`: build, then run bench/<name>.ts (compiled); results land in bench/results/.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { build } from './build.mjs';
import { log, root, run, walk } from './lib.mjs';
import { setup } from './setup.mjs';

const name = process.argv[2];
const names = walk(join(root, 'bench'), '.ts').map((p) =>
  p.slice(join(root, 'bench').length + 1, -3),
);
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
