// `npm start`: set up, build, then run the node on the automated-testing dev chain (home
// ~/.mwnode/auto, API on 127.0.0.1:33413) until Ctrl-C. The wallet and the local miner join it
// when they exist (see the README).
import { join } from 'node:path';
import { build } from './build.mjs';
import { root, run } from './lib.mjs';
import { setup } from './setup.mjs';

setup();
build();
run(process.execPath, [
  join(root, 'bin', 'mwnode'),
  '--auto',
  ...process.argv.slice(2),
  'server',
  'run',
]);
