// A node's sync as its API and log show it: waits until get_status says no_sync, then reads the
// states its `p2p_sync` log lines went through, repeats collapsed.
import assert from 'node:assert/strict';
import { ownerText } from './miner.js';
import { basic, type NodeProcess, ownerSecret } from './node_process.js';
import { pollUntil } from './poll.js';

export async function syncedStates(node: NodeProcess, ms = 5_000): Promise<string[]> {
  const auth = basic(ownerSecret(node.home));
  const status = async () =>
    (
      JSON.parse(await ownerText(node.url, auth, 'get_status', [])) as {
        result: { Ok: { sync_status: string } };
      }
    ).result.Ok.sync_status;
  assert.equal(await pollUntil(status, (s) => s === 'no_sync', ms, 100), 'no_sync');
  const states = node
    .stderr()
    .split('\n')
    .filter((l) => l.includes('"event":"p2p_sync"'))
    .map((l) => (JSON.parse(l) as { status: string }).status);
  return states.filter((s, i) => s !== states[i - 1]);
}
