// `npm start`: set up, build, then run on the usernet test chain (home ~/.mwnode/user) the
// wallet's Foreign API (127.0.0.1:23415) and the node (API on 127.0.0.1:23413) whose local test
// miner pays each block's reward to that wallet, until Ctrl-C. The dev chain's config
// (config/dev_chain.ts) schedules RandomX and Cuckatoo only: both stay at difficulty 1–3 on
// usernet, so a block comes about every second for as long as it runs (usernet's own schedule
// has ProgPoW, out of a CPU miner's reach from height 51).
// The dev wallet's password is $MWWALLET_PASSWORD (empty when unset: a test chain's wallet).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from './build.mjs';
import { log, root, run } from './lib.mjs';
import { setup } from './setup.mjs';

setup();
build();
const randomx = existsSync(join(root, 'native', 'randomx', 'build', 'Release', 'randomx.node'));

const dist = (path) => import(pathToFileURL(join(root, 'dist', path)).href);
const { defaultHome, networkDir, CONFIG_FILE_NAME } = await dist('config/home.js');
const { devChainConfig, stallsAtProgpow } = await dist('config/dev_chain.js');
const { readConfigFile, writeConfigFile } = await dist('config/load.js');

const home = process.env.MWNODE_HOME ?? defaultHome();
const netDir = networkDir(home, 'usernet');
const password = process.env.MWWALLET_PASSWORD ?? '';
const wallet = (args) => [
  join(root, 'bin', 'mwwallet'),
  '--usernet',
  '--home',
  home,
  '-p',
  password,
  ...args,
];

// First run: a node configuration whose test miner pays the wallet, and the wallet itself.
const nodeConfig = join(netDir, CONFIG_FILE_NAME);
if (!existsSync(nodeConfig)) {
  mkdirSync(netDir, { recursive: true, mode: 0o700 });
  const config = devChainConfig({ networkDir: netDir, randomx });
  writeConfigFile(nodeConfig, config);
  log(`wrote ${nodeConfig}: the test miner pays the wallet at ${config.testMinerWalletUrl}`);
  if (!randomx) log('the RandomX addon is not built: the dev chain mines Cuckatoo only');
} else if (stallsAtProgpow(readConfigFile(nodeConfig, 'usernet', netDir))) {
  // A home from an earlier npm start: its chain already follows usernet's own schedule.
  log(`${nodeConfig} has no pow_policy without ProgPoW: its test miner stops making blocks at`);
  log(`height 51. Move ${netDir} aside to start a dev chain that keeps mining.`);
}
if (!existsSync(join(netDir, 'wallet_data', 'wallet.seed'))) {
  log('creating the dev wallet (write the recovery phrase down if the coins matter to you)');
  run(process.execPath, wallet(['init']));
}

const listener = spawn(process.execPath, wallet(['listen']), { cwd: root, stdio: 'inherit' });
listener.on('exit', (code) => log(`the wallet listener stopped (${code})`));
try {
  run(process.execPath, [
    join(root, 'bin', 'mwnode'),
    '--usernet',
    '--home',
    home,
    'server',
    'run',
  ]);
} finally {
  listener.kill('SIGTERM');
}
