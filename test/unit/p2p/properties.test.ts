// Round-trip properties of every message type, both protocol versions, two chain types:
// decode(encode(x)) = x and encode(decode(b)) = b for b = encode(x).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { toHex } from '../../../core/bytes.js';
import { CHAIN_PARAMS } from '../../../core/chain_type.js';
import { decodeMessage, encodeMessage } from '../../../core/p2p/msg.js';
import { enforcedCap, MSG_TYPE_NAMES } from '../../../core/p2p/msg_type.js';
import { arbMessage } from '../../support/p2p_arbitraries.js';

const RUNS = Number(process.env.P2P_PROPERTY_RUNS ?? 25);
const SETTINGS = [CHAIN_PARAMS.mainnet, CHAIN_PARAMS.automated] as const;

describe(`p2p properties (${RUNS} runs per type, chain and version)`, () => {
  MSG_TYPE_NAMES.forEach((name, code) => {
    it(`${code} ${name}: decode(encode(x)) = x and encode(decode(b)) = b`, () => {
      let checked = 0;
      for (const params of SETTINGS) {
        for (const version of [1, 2]) {
          fc.assert(
            fc.property(arbMessage(name, params), (m) => {
              const body = encodeMessage(m, version, params);
              // Small chains' caps are below some arbitrary blocks; those are the cap tests' job.
              fc.pre(body.length <= enforcedCap(code, params));
              const back = decodeMessage(code, body, version, params);
              assert.deepStrictEqual(back, m);
              assert.equal(toHex(encodeMessage(back, version, params)), toHex(body));
              checked++;
            }),
            { numRuns: RUNS, seed: 0x0b0e + code * 4 + version },
          );
        }
      }
      // The precondition must not have filtered (nearly) everything away.
      assert.ok(checked >= RUNS * 2, `${name}: only ${checked} values checked`);
    });
  });
});
