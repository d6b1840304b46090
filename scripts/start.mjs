// `npm start`: set up, build, then run the node. At this stage the node only has its
// command-line surface, so this prints its help; later it starts node, wallet and miner.
import { join } from 'node:path';
import { build } from './build.mjs';
import { root, run } from './lib.mjs';
import { setup } from './setup.mjs';

setup();
build();
run(process.execPath, [join(root, 'bin', 'mwnode'), '--help']);
