// `[server.p2p_config]` peer_listener_buffer_count and capabilities: Epic's defaults, the
// values a file can give (capabilities in Epic 4.0's bitflags text), the exact error for each
// bad value, the generated file's form, and how the node hands them to the peers actor.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatCapabilities, parseCapabilities } from '../../../config/capabilities.js';
import { defaultServerConfig } from '../../../config/defaults.js';
import { ConfigError } from '../../../config/errors.js';
import { parseServerToml } from '../../../config/server_toml.js';
import { renderServerToml } from '../../../config/template.js';
import type { P2pConfig } from '../../../config/types.js';
import { CHAIN_TYPES } from '../../../core/chain_type.js';
import { p2pInitOf } from '../../../node/p2p_init.js';

const NET = '/srv/mw/main';
const FILE = '/etc/mw/mwnode-server.toml';
const FULL = 'HEADER_HIST | TXHASHSET_HIST | PEER_LIST | TX_KERNEL_HASH | HEADER_FASTSYNC';

function p2p(lines: string): P2pConfig {
  const text = `[server]\n[server.p2p_config]\n${lines}\n`;
  return parseServerToml(text, { file: FILE, chain: 'mainnet', networkDir: NET }).p2p;
}

function p2pError(lines: string): ConfigError {
  try {
    p2p(lines);
  } catch (err) {
    assert.ok(err instanceof ConfigError, `not a ConfigError: ${String(err)}`);
    return err;
  }
  assert.fail('parsed without error');
}

describe('p2p_config peer_listener_buffer_count and capabilities', () => {
  it("defaults are Epic's on every chain: buffer 8, FULL_NODE (0x1f)", () => {
    for (const chain of CHAIN_TYPES) {
      const d = defaultServerConfig(chain, NET).p2p;
      assert.deepEqual([d.peerListenerBufferCount, d.capabilities], [8, 0x1f], chain);
    }
    const c = p2p('port = 5');
    assert.deepEqual([c.peerListenerBufferCount, c.capabilities], [8, 0x1f]);
  });

  it('the generated file writes both keys active, capabilities as Epic 4.0 writes it', () => {
    const text = renderServerToml(defaultServerConfig('mainnet', NET));
    assert.ok(text.includes('\npeer_listener_buffer_count = 8\n'));
    assert.ok(text.includes(`\ncapabilities = "${FULL}"\n`));
  });

  it('explicit buffer counts from 0 to u32 max', () => {
    assert.equal(p2p('peer_listener_buffer_count = 0').peerListenerBufferCount, 0);
    assert.equal(p2p('peer_listener_buffer_count = 40').peerListenerBufferCount, 40);
    const max = p2p('peer_listener_buffer_count = 4294967295');
    assert.equal(max.peerListenerBufferCount, 4_294_967_295);
  });

  it("capabilities: bitflags 2's text, with or without spaces, names, composites and hex", () => {
    const cases: [string, number][] = [
      [FULL, 0x1f],
      ['HEADER_HIST|TXHASHSET_HIST|PEER_LIST|TX_KERNEL_HASH|HEADER_FASTSYNC', 0x1f], // edna.toml
      ['FULL_NODE', 0x1f],
      ['FULL_NODE | ONIONSTEM', 0x3f],
      ['PEER_LIST', 0x04],
      ['  HEADER_HIST\t|\nPEER_LIST  ', 0x05],
      ['UNKNOWN', 0],
      ['', 0],
      ['   ', 0],
      ['0x1f', 0x1f],
      ['0x+1F', 0x1f],
      ['0x0000000040 | HEADER_HIST', 0x41],
      ['0xffffffff', 0xffff_ffff],
    ];
    for (const [text, bits] of cases) {
      assert.equal(p2p(`capabilities = ${JSON.stringify(text)}`).capabilities, bits, text);
    }
  });

  it('capabilities round-trip through the generated file, unnamed bits as one 0x number', () => {
    const base = defaultServerConfig('floonet', NET);
    for (const bits of [0, 0x01, 0x14, 0x20, 0x3f, 0x5f, 0xffff_ffff]) {
      const config = { ...base, p2p: { ...base.p2p, capabilities: bits } };
      const file = { file: FILE, chain: 'floonet' as const, networkDir: NET };
      assert.equal(parseServerToml(renderServerToml(config), file).p2p.capabilities, bits);
    }
    assert.deepEqual([0, 0x14, 0x3f, 0x5f, 0xe0].map(formatCapabilities), [
      '',
      'PEER_LIST | HEADER_FASTSYNC',
      `${FULL} | ONIONSTEM`,
      `${FULL} | 0x40`,
      'ONIONSTEM | 0xc0',
    ]);
    assert.deepEqual(parseCapabilities('0X1f'), { kind: 'name', flag: '0X1f' });
  });

  const OPEN = `a string of flags such as "${FULL}"`;
  const NAMES =
    'UNKNOWN, HEADER_HIST, TXHASHSET_HIST, PEER_LIST, TX_KERNEL_HASH, HEADER_FASTSYNC, ' +
    'ONIONSTEM, FULL_NODE or 0x and a hexadecimal u32';
  const cases: [string, string, string, string][] = [
    [
      'negative buffer count',
      'peer_listener_buffer_count = -1',
      'peer_listener_buffer_count',
      'expected an integer from 0 to 4294967295, got -1',
    ],
    [
      'buffer count above u32',
      'peer_listener_buffer_count = 4294967296',
      'peer_listener_buffer_count',
      'expected an integer from 0 to 4294967295, got 4294967296',
    ],
    [
      'buffer count as a string',
      'peer_listener_buffer_count = "8"',
      'peer_listener_buffer_count',
      'expected an integer, got a string',
    ],
    [
      "Epic 3's capabilities table",
      '[server.p2p_config.capabilities]\nbits = 31',
      'capabilities',
      `expected ${OPEN}, got a table ({ bits = N } is Epic 3's form; Epic 4.0 reads only the string)`,
    ],
    [
      'capabilities as an integer',
      'capabilities = 31',
      'capabilities',
      `expected ${OPEN}, got an integer`,
    ],
    [
      'unknown capability name',
      'capabilities = "HEADER_HIST | FAST_SYNC"',
      'capabilities',
      `unknown flag "FAST_SYNC" (expected ${NAMES})`,
    ],
    [
      'names are case-sensitive',
      'capabilities = "full_node"',
      'capabilities',
      `unknown flag "full_node" (expected ${NAMES})`,
    ],
    [
      'empty flag between bars',
      'capabilities = "HEADER_HIST || PEER_LIST"',
      'capabilities',
      'empty flag in "HEADER_HIST || PEER_LIST" (flags are joined by "|")',
    ],
    [
      'trailing bar',
      'capabilities = "PEER_LIST |"',
      'capabilities',
      'empty flag in "PEER_LIST |" (flags are joined by "|")',
    ],
    [
      'hex without digits',
      'capabilities = "0x"',
      'capabilities',
      'invalid hex flag "0x" (expected 0x and a hexadecimal u32)',
    ],
    [
      'hex above u32',
      'capabilities = "0x100000000"',
      'capabilities',
      'invalid hex flag "0x100000000" (expected 0x and a hexadecimal u32)',
    ],
    [
      'negative hex',
      'capabilities = "0x-1"',
      'capabilities',
      'invalid hex flag "0x-1" (expected 0x and a hexadecimal u32)',
    ],
  ];
  for (const [name, lines, key, problem] of cases) {
    it(`rejects: ${name}`, () => {
      const err = p2pError(lines);
      const fullKey = `server.p2p_config.${key}`;
      assert.deepEqual([err.file, err.key, err.problem], [FILE, fullKey, problem]);
      assert.equal(err.message, `${FILE}: ${fullKey}: ${problem}`);
    });
  }

  it('the node hands every key to the peers actor (P2pInit)', () => {
    const base = defaultServerConfig('usernet', NET);
    const config = {
      ...base,
      p2p: {
        ...base.p2p,
        peerListenerBufferCount: 3,
        capabilities: 0x45,
        peerMaxInboundCount: 9,
        peerMaxOutboundCount: 4,
        peerMinPreferredOutboundCount: 2,
        seedingType: 'List' as const,
        seeds: [{ host: '198.18.0.2', port: 3414 }],
        peersAllow: [{ host: '::1', port: 7 }],
        peersDeny: [{ host: '198.18.0.3', port: 1 }],
        peersPreferred: [{ host: '198.18.0.4', port: 2 }],
        banWindow: 60,
      },
    };
    const head = { totalDifficulty: { cuckatoo: 7n }, height: 2n };
    const init = p2pInitOf(config, { userAgent: 'MW/mwnode test', handshakeTimeoutMs: 50, head });
    assert.deepEqual(init, {
      chainType: 'usernet',
      host: '0.0.0.0',
      port: 23414,
      userAgent: 'MW/mwnode test',
      handshakeTimeoutMs: 50,
      maxInbound: 9,
      maxOutbound: 4,
      minPreferredOutbound: 2,
      listenerBufferCount: 3,
      capabilities: 0x45,
      seedingType: 'List',
      seeds: [{ ip: '198.18.0.2', port: 3414 }],
      allow: [{ ip: '::1', port: 7 }],
      deny: [{ ip: '198.18.0.3', port: 1 }],
      preferred: [{ ip: '198.18.0.4', port: 2 }],
      banWindow: 60,
      head,
    });
  });
});
