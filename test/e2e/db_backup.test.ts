// `mwnode db backup` of a running node while blocks arrive, and `mwnode db restore` into a stopped
// node's empty db_root: the restored node starts on the head the backup reported, its chain
// validates, and neither command overwrites anything.
import assert from 'node:assert/strict';
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { toHex } from '../../core/bytes.js';
import { headerHash } from '../../core/ser/header.js';
import { AUTO, foreignOk, mineBlock, submit } from '../support/miner.js';
import { mwnodeCommand } from '../support/mwnode_command.js';
import {
  basic,
  type NodeProcess,
  ownerSecret,
  removeHome,
  startNodeProcess,
} from '../support/node_process.js';

const NODE_LINES = ['pow_policy = { cuckatoo = 100 }'];
let node: NodeProcess;
let home = '';

/** `mwnode --auto db …` run where the node's config file is (as an operator would). */
async function db(args: readonly string[]) {
  const r = await mwnodeCommand(['--auto', 'db', ...args], 60_000, home);
  return { code: r.code, out: r.stdout, err: r.stderr };
}

async function mine(n: number): Promise<string[]> {
  const hashes: string[] = [];
  for (let i = 0; i < n; i++) {
    const block = await mineBlock(node.url);
    assert.deepEqual((await submit(node.url, block)).body.result, { Ok: null });
    hashes.push(toHex(headerHash(block.header, AUTO)));
  }
  return hashes;
}

describe('mwnode db backup and restore', { timeout: 120_000 }, () => {
  before(async () => {
    node = await startNodeProcess({ serverLines: NODE_LINES });
    home = node.home;
  });
  after(async () => {
    await node?.stop();
    if (home !== '') removeHome(home);
  });

  const backup = () => join(home, 'backup.sqlite');
  let reported = { height: 0, hash: '' };
  const mined: string[] = [];

  it('backs up the running node while blocks arrive, as of one moment', async () => {
    mined.push(...(await mine(5)));
    // Blocks keep coming while the copy is made.
    const [r, more] = await Promise.all([db(['backup', backup()]), mine(3)]);
    mined.push(...more);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.err, '');
    const m =
      /^backed up (\S+) to (\S+): head at height (\d+), ([0-9a-f]{64}) \(\d+\.\d s\)\n$/.exec(
        r.out,
      );
    assert.ok(m !== null, r.out);
    assert.deepEqual([m[1], m[2]], [join(home, 'chain_data', 'chain.sqlite'), backup()]);
    reported = { height: Number(m[3]), hash: m[4] as string };
    assert.ok(reported.height >= 5 && reported.height <= 8, `height ${reported.height}`);
    assert.equal(reported.hash, mined[reported.height - 1], 'the head of that height');
  });

  it('refuses to write over an existing file, and to restore over a chain', async () => {
    assert.deepEqual(await db(['backup', backup()]), {
      code: 1,
      out: '',
      err: `mwnode: ${backup()} exists already; give a new file\n`,
    });
    const chainDir = join(home, 'chain_data');
    assert.deepEqual(await db(['restore', backup()]), {
      code: 1,
      out: '',
      err: `mwnode: ${join(chainDir, 'chain.sqlite')} exists: stop the node and move ${chainDir} aside before restoring\n`,
    });
  });

  it('restores into the stopped node, which starts on the reported head and validates', async () => {
    await node.stop();
    const chainDir = join(home, 'chain_data');
    renameSync(chainDir, join(home, 'chain_data.old'));
    const r = await db(['restore', backup()]);
    assert.deepEqual(r, {
      code: 0,
      err: '',
      out: `restored ${backup()} to ${join(chainDir, 'chain.sqlite')}: head at height ${reported.height}, ${reported.hash}\n`,
    });
    assert.equal(existsSync(join(chainDir, 'chain.sqlite.restoring')), false);
    node = await startNodeProcess({ home, serverLines: NODE_LINES });
    const tip = (await foreignOk(node.url, 'get_tip', [])) as {
      height: number;
      last_block_pushed: string;
    };
    assert.deepEqual([tip.height, tip.last_block_pushed], [reported.height, reported.hash]);
    const v = await fetch(`${node.url}/v2/owner`, {
      method: 'POST',
      headers: { authorization: basic(ownerSecret(home)) },
      body: '{"jsonrpc":"2.0","method":"validate_chain","params":[],"id":1}',
    });
    assert.deepEqual(await v.json(), { id: 1, jsonrpc: '2.0', result: { Ok: null } });
    // The restored chain goes on: the next block is accepted on top of it.
    assert.equal((await mine(1)).length, 1);
  });

  it('refuses a file that is not a chain database', async () => {
    const file = join(home, 'mwnode-server.toml');
    assert.deepEqual(await db(['restore', file]), {
      code: 1,
      out: '',
      err: `mwnode: ${file} is not a chain database: file is not a database\n`,
    });
  });
});
