// The scan page loop (actors/wallet/scan.ts) over a scripted node: pages, progress percents and
// messages as Epic computes them, matches from Epic's foundation test file (its own keychain),
// the no-progress guard and abort.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { UnspentPage } from '../../../actors/wallet/node_client.js';
import {
  collectChainOutputs,
  refreshScanStart,
  type ScanClient,
  ScanError,
  type StatusMessage,
  scanChain,
  scanPercent,
} from '../../../actors/wallet/scan.js';
import { parseJson } from '../../../core/json/parse.js';
import { ExtKeychain } from '../../../core/keychain/keychain.js';
import { cbDataFromJson } from '../../../core/serde/cbdata.js';
import { type ChainUnspentOutput, ScanMatcher } from '../../../core/wallet/scan_match.js';
import { SHARED_VECTORS } from '../../support/paths.js';

const keychain = ExtKeychain.fromMnemonic(
  'shop dignity online camera various front stay prosper bench dash learn chimney huge crush ' +
    'develop rack beauty prison wear manual harbor theory bachelor exile',
  '',
  false,
);
const matcher = new ScanMatcher(keychain, 'automated');

// Foundation lines 0..4 at heights 5..25, MMR indices 11..15 (line 0 is not matched: legacy
// message with depth 1, see scan_match.test).
const chain: ChainUnspentOutput[] = readFileSync(
  join(SHARED_VECTORS, 'foundation_test19.jsonl'),
  'utf8',
)
  .split('\n')
  .filter((l) => l.length > 0)
  .slice(0, 5)
  .map((line, i) => {
    const cb = cbDataFromJson(parseJson(line), '');
    return {
      commit: cb.output.commit,
      proof: cb.output.proof,
      isCoinbase: true,
      height: 5n * BigInt(i + 1),
      mmrIndex: 11n + BigInt(i),
    };
  });

/** A node that answers pages of `per` outputs over MMR indices 11..15. */
function scripted(per: number, calls: string[] = []): ScanClient {
  return {
    getPmmrIndices: async (s, e) => {
      calls.push(`pmmr ${s} ${e}`);
      return { startIndex: 11n, endIndex: 15n };
    },
    getUnspentOutputs: async (start, end, max): Promise<UnspentPage> => {
      calls.push(`page ${start} ${end} ${max}`);
      const outputs = chain.filter((o) => o.mmrIndex >= start).slice(0, per);
      const last = outputs.length === 0 ? start : (outputs[outputs.length - 1]?.mmrIndex ?? start);
      return { highestIndex: 15n, lastRetrievedIndex: last, outputs };
    },
  };
}

describe('scanPercent (Rust float → u8 cast, capped at 99)', () => {
  it('computes Epic’s percentages', () => {
    assert.equal(scanPercent(11n, 12n, 15n), 25);
    assert.equal(scanPercent(11n, 14n, 15n), 75);
    assert.equal(scanPercent(11n, 15n, 15n), 99);
    assert.equal(scanPercent(1n, 1n, 1n), 0); // 0/0 → NaN → 0
    assert.equal(scanPercent(5n, 3n, 9n), 0);
    assert.equal(scanPercent(0n, 10n, 3n), 99);
  });
});

describe('scanChain over a scripted node', () => {
  it('walks the pages, reports progress and found outputs, returns the range', async () => {
    const calls: string[] = [];
    const messages: StatusMessage[] = [];
    const r = await scanChain(scripted(2, calls), matcher, 1n, 25n, (m) => messages.push(m));
    assert.deepEqual(calls, ['pmmr 1 25', 'page 11 15 1000', 'page 13 15 1000', 'page 15 15 1000']);
    assert.deepEqual(
      r.found.map((f) => [f.keyId, f.mmrIndex]),
      [
        ['010000000a000000000000000000000000', 12n],
        ['010000000f000000000000000000000000', 13n],
        ['0100000014000000000000000000000000', 14n],
        ['0100000019000000000000000000000000', 15n],
      ],
    );
    assert.equal(r.startPmmrIndex, 11n);
    assert.equal(r.lastPmmrIndex, 15n);
    const brief = messages.map((m) =>
      m.kind === 'Scanning' ? `${m.percent} ${m.message.split('\n').join('|')}` : m.kind,
    );
    assert.equal(brief[0], '0 Starting UTXO scan');
    assert.equal(brief[1], '25 Checking 2 outputs (from PMMR index 11 to 12, highest: 15).');
    assert.match(
      brief[2] as string,
      /^25 \|Output found:\|commit: 0999.*,\|amount: 7\.104,\|keyid: 010000000a000000000000000000000000,\|mmr index: 12\|$/,
    );
    assert.equal(brief[3], '75 Checking 2 outputs (from PMMR index 13 to 14, highest: 15).');
    assert.equal(brief[6], '99 Checking 1 outputs (from PMMR index 15 to 15, highest: 15).');
    assert.equal(brief[8], '99 Identified 4 wallet_outputs as belonging to this wallet');
    assert.equal(brief.length, 9);
  });

  it('says nothing about identified outputs when none are ours', async () => {
    const messages: StatusMessage[] = [];
    const other = new ScanMatcher(ExtKeychain.fromSeed(new Uint8Array(32).fill(9)), 'automated');
    const r = await scanChain(scripted(5), other, 0n, 25n, (m) => messages.push(m));
    assert.deepEqual(r.found, []);
    assert.deepEqual(
      messages.map((m) => m.kind === 'Scanning' && m.message),
      ['Starting UTXO scan', 'Checking 5 outputs (from PMMR index 11 to 15, highest: 15).'],
    );
  });

  it('a node that goes backwards is a ScanError, not an endless loop', async () => {
    const stuck: ScanClient = {
      getPmmrIndices: async () => ({ startIndex: 11n, endIndex: 15n }),
      getUnspentOutputs: async () => ({ highestIndex: 15n, lastRetrievedIndex: 3n, outputs: [] }),
    };
    await assert.rejects(collectChainOutputs(stuck, matcher, 11n, 15n), ScanError);
  });

  it('stops when aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(
      collectChainOutputs(scripted(1), matcher, 11n, 15n, () => {}, ac.signal),
      {
        name: 'AbortError',
      },
    );
  });

  it('refresh scans from 100 below the last scanned height, saturating', () => {
    assert.equal(refreshScanStart(0n), 0n);
    assert.equal(refreshScanStart(100n), 0n);
    assert.equal(refreshScanStart(250n), 150n);
  });
});
