// `mwwallet`: the wallet executable. Only the command-line surface exists so far.
import { runMain } from './info.js';

runMain(
  {
    name: 'mwwallet',
    summary: 'The wallet of mwnode: Owner and Foreign APIs compatible with epic-wallet.',
  },
  process.argv.slice(2),
);
