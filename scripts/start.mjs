// `npm start`: set up, build, then run the node on the usernet test chain with the local test
// miner (home ~/.mwnode/user, API on 127.0.0.1:23413) until Ctrl-C. Usernet schedules RandomX,
// ProgPoW and Cuckatoo at difficulty 1 below height 50, so blocks come every few seconds.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { build } from './build.mjs';
import { log, root, run } from './lib.mjs';
import { setup } from './setup.mjs';

setup();
build();
// Most usernet blocks are RandomX: without the addon the test miner stops at the first one.
if (!existsSync(join(root, 'native', 'randomx', 'build', 'Release', 'randomx.node')))
  log('the RandomX addon is not built: the test miner will stop at the first RandomX block');
run(process.execPath, [
  join(root, 'bin', 'mwnode'),
  '--usernet',
  ...process.argv.slice(2),
  'server',
  'run',
]);
