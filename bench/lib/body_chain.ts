// A real chain of full blocks for the body-sync half of bench/sync.ts: mined by the test miner
// (test/support/miner.ts: template, coinbase, finalize, a Cuckatoo proof on the 9-edge-bit graph)
// against a real mwnode on the automated-testing chain with the Cuckatoo-only policy, every block
// accepted by that node, then kept as the scripted peers serve it (chain_file.ts): headers and
// `Block` message bodies. Timestamps are the templates' (parent + 60 s), so difficulty stays at
// the floor and the chain does not depend on when it was mined.
//
// Coinbases above the 160 precomputed ones each need a range proof (~0.25 s), hence the cache.
import { chainHeader } from '../../core/chain/header_source.js';
import { genesisHeader } from '../../core/genesis.js';
import { encodeMessage } from '../../core/p2p/msg.js';
import { encode } from '../../core/ser/codec.js';
import { writeHeader } from '../../core/ser/header.js';
import { CUCKATOO_ONLY } from '../../test/support/killable_node.js';
import { AUTO, mineBlock, submit } from '../../test/support/miner.js';
import { removeHome, spawnNode, tempHome, writeConfig } from '../../test/support/node_process.js';
import { cachePath, chainFileExists, readCost, writeChainFile, writeCost } from './chain_file.js';

/** Changes whenever the miner would make a different chain (the cache file's name). */
const BODY_VERSION = 'auto-cuckatoo100-b1';

export interface BodyChain {
  readonly file: string;
  /** Mining time, ms (recorded beside the cached file); null if not recorded. */
  readonly generatedMs: number | null;
  readonly cached: boolean;
}

/** The cached chain of `count` mined blocks, mined (and cached) first when missing. */
export async function ensureBodyChain(
  count: number,
  log: (line: string) => void,
): Promise<BodyChain> {
  const file = cachePath(`blocks-${BODY_VERSION}-${count}.bin`);
  if (chainFileExists(file))
    return { file, generatedMs: readCost<{ ms: number }>(file)?.ms ?? null, cached: true };
  log(`mining ${count} blocks on a local node (cached in ${file} for later runs)`);
  const started = performance.now();
  const home = tempHome();
  const configFile = writeConfig(home, [CUCKATOO_ONLY], true, 'automated', [
    'seeding_type = "None"',
  ]);
  const node = await spawnNode({
    home,
    configFile,
    stdout: 'ignore',
    timeoutMs: 30_000,
    stderrLimit: 65_536,
  });
  const genesis = chainHeader(genesisHeader('automated'), AUTO);
  const hashes: Uint8Array[] = [genesis.hash];
  const headers: Uint8Array[] = [encode(writeHeader, genesis.header, 2, AUTO)];
  const blocks: Uint8Array[] = [new Uint8Array(0)];
  try {
    for (let i = 1; i <= count; i++) {
      const block = await mineBlock(node.url, { templateTime: true });
      const reply = await submit(node.url, block);
      if (reply.status !== 200 || reply.body.result?.Ok === undefined)
        throw new Error(`block ${i} refused: ${JSON.stringify(reply.body)}`);
      hashes.push(chainHeader(block.header, AUTO).hash);
      headers.push(encode(writeHeader, block.header, 2, AUTO));
      blocks.push(encodeMessage({ type: 'Block', block }, 2, AUTO));
      if (i % 100 === 0) log(`  ${i} blocks`);
    }
  } finally {
    await node.stop();
    removeHome(home);
  }
  writeChainFile(file, hashes, headers, blocks);
  const ms = performance.now() - started;
  writeCost(file, { blocks: count, ms });
  return { file, generatedMs: ms, cached: false };
}
