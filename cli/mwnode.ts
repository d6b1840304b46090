// `mwnode`: the node executable. Only the command-line surface exists so far.
import { runMain } from './info.js';

runMain(
  {
    name: 'mwnode',
    summary: 'An Epic Cash 4.0 compatible Mimblewimble node.',
    usage: [
      'USAGE:',
      '    mwnode [OPTIONS]',
      '',
      'OPTIONS:',
      '    -h, --help       Print this help',
      '    -V, --version    Print the version',
    ].join('\n'),
  },
  process.argv.slice(2),
);
