// `npm start`: set up, build, then run on the usernet test chain (home ~/.mwnode/user) the
// wallet's Foreign API (127.0.0.1:23415) and the node (API on 127.0.0.1:23413) whose local test
// miner pays each block's reward to that wallet, until Ctrl-C. Usernet schedules RandomX,
// ProgPoW and Cuckatoo at difficulty 1 below height 50, so blocks come every few seconds.
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
// Most usernet blocks are RandomX: without the addon the test miner stops at the first one.
if (!existsSync(join(root, 'native', 'randomx', 'build', 'Release', 'randomx.node')))
  log('the RandomX addon is not built: the test miner will stop at the first RandomX block');

const dist = (path) => import(pathToFileURL(join(root, 'dist', path)).href);
const { defaultHome, networkDir, CONFIG_FILE_NAME } = await dist('config/home.js');
const { defaultServerConfig } = await dist('config/defaults.js');
const { writeConfigFile } = await dist('config/load.js');

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
  const config = defaultServerConfig('usernet', netDir, netDir);
  writeConfigFile(nodeConfig, { ...config, testMinerWalletUrl: config.stratum.walletListenerUrl });
  log(`wrote ${nodeConfig}: the test miner pays the wallet at ${config.stratum.walletListenerUrl}`);
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
