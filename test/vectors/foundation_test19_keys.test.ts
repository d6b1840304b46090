// Ties the keychain to real Epic output: Epic's foundation test file (19 coinbase outputs made by
// `tests/cucumber.rs` from a fixed mnemonic, crypto reference §6 / §8.6) is reproduced from that
// mnemonic. For each line: key_id = m/(5·(i+1)), and with v = 710 400 000 the output commitment
// is commit(v, blind_switch(v, key)) (Regular) and the kernel excess is the same blind times G.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { toHex } from '../../core/bytes.js';
import { commit, commitSum, commitValue } from '../../core/crypto/commit.js';
import { deriveKeyId, Identifier } from '../../core/keychain/identifier.js';
import { ExtKeychain } from '../../core/keychain/keychain.js';
import { SwitchCommitmentType } from '../../core/keychain/switch_type.js';
import { SHARED_VECTORS } from '../support/paths.js';

const MNEMONIC =
  'shop dignity online camera various front stay prosper bench dash learn chimney huge crush ' +
  'develop rack beauty prison wear manual harbor theory bachelor exile';

// Every line carries the AutomatedTesting cumulative levy: 5 blocks × 142 080 000.
const VALUE = 710_400_000n;

interface Line {
  output: { features: string; commit: string };
  kernel: { features: string; excess: string };
  key_id: string;
}

function readLines(): Line[] {
  const text = readFileSync(join(SHARED_VECTORS, 'foundation_test19.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as Line);
}

describe('foundation_test19.jsonl from its mnemonic', () => {
  const lines = readLines();
  const keychain = ExtKeychain.fromMnemonic(MNEMONIC, '', false);

  it('has 19 lines', () => {
    assert.equal(lines.length, 19);
  });

  lines.forEach((line, i) => {
    it(`line ${i}: key id m/${5 * (i + 1)}, output commit and kernel excess`, () => {
      const id = Identifier.fromHex(line.key_id);
      assert.ok(id.equals(deriveKeyId(1, 5 * (i + 1))));
      assert.equal(id.toBip32String(), `m/${5 * (i + 1)}`);

      const blind = keychain.deriveKey(VALUE, id, SwitchCommitmentType.Regular);
      assert.equal(
        toHex(keychain.commit(VALUE, id, SwitchCommitmentType.Regular)),
        line.output.commit,
      );
      assert.equal(toHex(commit(VALUE, blind)), line.output.commit);
      // The coinbase kernel excess is output − v·H = blind·G.
      assert.equal(toHex(commit(0n, blind)), line.kernel.excess);
      assert.equal(
        toHex(commitSum([commit(VALUE, blind)], [commitValue(VALUE)])),
        line.kernel.excess,
      );

      // The raw key (no switch blind) does not reproduce the file: Epic applied Regular.
      assert.notEqual(
        toHex(keychain.commit(VALUE, id, SwitchCommitmentType.None)),
        line.output.commit,
      );
    });
  });

  it('the wallet seed rule (raw entropy) would not reproduce line 0', () => {
    const wallet = ExtKeychain.fromWalletMnemonic(MNEMONIC);
    const id = Identifier.fromHex(lines[0]?.key_id ?? '');
    assert.notEqual(
      toHex(wallet.commit(VALUE, id, SwitchCommitmentType.Regular)),
      lines[0]?.output.commit,
    );
  });
});
