// Where seeds come from, by seeding_type; the DNS seed through a fake resolver (tests never
// resolve a real name).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Resolve, seedSource } from '../../../actors/peers/seeds.js';

const noLog = () => {};

describe('seed sources', () => {
  it('None and Programmatic have no seeds; List has the configured ones', async () => {
    const list = [{ ip: '198.18.0.1', port: 3414 }];
    assert.deepEqual(await seedSource('None', list, 'mainnet', noLog)(), []);
    assert.deepEqual(await seedSource('Programmatic', list, 'mainnet', noLog)(), []);
    assert.deepEqual(await seedSource('List', list, 'mainnet', noLog)(), list);
  });

  it("DNSSeed: Epic's name per network, its port, every address the name has", async () => {
    const asked: string[] = [];
    const resolve: Resolve = async (name) => {
      asked.push(name);
      return [{ address: '198.18.0.7' }, { address: '2001:DB8::1' }];
    };
    assert.deepEqual(await seedSource('DNSSeed', [], 'mainnet', noLog, resolve)(), [
      { ip: '198.18.0.7', port: 3414 },
      { ip: '2001:db8::1', port: 3414 },
    ]);
    assert.deepEqual(await seedSource('DNSSeed', [], 'floonet', noLog, resolve)(), [
      { ip: '198.18.0.7', port: 13_414 },
      { ip: '2001:db8::1', port: 13_414 },
    ]);
    // Epic resolves the mainnet name on every network but floonet.
    await seedSource('DNSSeed', [], 'usernet', noLog, resolve)();
    assert.deepEqual(asked, ['node.epiccash.com', 'floonet.epiccash.com', 'node.epiccash.com']);
  });

  it('a failed lookup is logged and gives no seeds', async () => {
    const events: string[] = [];
    const resolve: Resolve = async () => {
      throw new Error('getaddrinfo ENOTFOUND');
    };
    const log = (event: string, f: Record<string, unknown>) => events.push(`${event} ${f.error}`);
    assert.deepEqual(await seedSource('DNSSeed', [], 'mainnet', log, resolve)(), []);
    assert.deepEqual(events, ['p2p_seed_lookup_failed getaddrinfo ENOTFOUND']);
  });
});
