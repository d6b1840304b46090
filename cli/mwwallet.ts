// `mwwallet`: the wallet executable. Only the command-line surface exists so far.
import { runMain } from './info.js';

runMain(
  {
    name: 'mwwallet',
    summary: 'The wallet of mwnode: Owner and Foreign APIs compatible with epic-wallet.',
    usage: [
      'USAGE:',
      '    mwwallet [OPTIONS]',
      '',
      'OPTIONS:',
      '    -h, --help       Print this help',
      '    -V, --version    Print the version',
    ].join('\n'),
  },
  process.argv.slice(2),
);
