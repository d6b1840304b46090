// `mwnode`: the node executable. Only the command-line surface exists so far.
import { runMain } from './info.js';

runMain(
  { name: 'mwnode', summary: 'An Epic Cash 4.0 compatible Mimblewimble node.' },
  process.argv.slice(2),
);
