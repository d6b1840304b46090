// Every line of Epic's floonet foundation file (500 coinbase outputs + kernels made by Epic's
// own stack): JSON → core types → binary (v1 and v2) → core types → JSON, byte-identical.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { toHex } from '../../core/bytes.js';
import { CHAIN_PARAMS } from '../../core/chain_type.js';
import { parseJson } from '../../core/json/parse.js';
import { stringifyJson } from '../../core/json/stringify.js';
import { decode, encode, hashOf } from '../../core/ser/codec.js';
import { readKernel, readOutput, writeKernel, writeOutput } from '../../core/ser/transaction.js';
import { cbDataFromJson, cbDataToJson } from '../../core/serde/cbdata.js';
import { JsonFormError } from '../../core/serde/fields.js';
import { kernelFromJson } from '../../core/serde/transaction.js';
import { SHARED_VECTORS } from '../support/paths.js';

const params = CHAIN_PARAMS.floonet;

function lines(name: string): string[] {
  const text = readFileSync(join(SHARED_VECTORS, name), 'utf8');
  return text.split('\n').filter((l) => l.length > 0);
}

describe('foundation vectors', () => {
  it('the floonet file has the SHA-256 Epic requires', () => {
    const sha = createHash('sha256')
      .update(readFileSync(join(SHARED_VECTORS, 'foundation_floonet.jsonl')))
      .digest('hex');
    assert.equal(sha, params.foundationSha256);
  });

  for (const file of ['foundation_floonet.jsonl', 'foundation_test19.jsonl']) {
    it(`${file}: every line round-trips exactly through binary`, () => {
      const all = lines(file);
      assert.equal(all.length, file === 'foundation_floonet.jsonl' ? 500 : 19);
      all.forEach((line, k) => {
        const cb = cbDataFromJson(parseJson(line), `line ${k + 1}`);
        for (const version of [1, 2]) {
          const output = decode(
            readOutput,
            encode(writeOutput, cb.output, version, params),
            version,
            params,
            'output',
          );
          const kernel = decode(
            readKernel,
            encode(writeKernel, cb.kernel, version, params),
            version,
            params,
            'kernel',
          );
          assert.equal(
            stringifyJson(cbDataToJson({ output, kernel, keyId: cb.keyId })),
            line,
            `line ${k + 1} v${version}`,
          );
        }
        assert.equal(encode(writeOutput, cb.output, 2, params).length, 717);
        assert.equal(encode(writeKernel, cb.kernel, 2, params).length, 98);
        assert.equal(encode(writeKernel, cb.kernel, 1, params).length, 114);
      });
    });
  }

  it('the first record: raw signature bytes, key id, hashes', () => {
    const cb = cbDataFromJson(parseJson(lines('foundation_floonet.jsonl')[0] as string), 'line 1');
    // node-api reference §13 item 6: compact (JSON) ↔ raw (wire) signature.
    assert.equal(
      toHex(cb.kernel.excessSig),
      '91867c301e76cc01ad374306dbe781f643a33a841dc93b7f403ce6cb9bf5d1f755c1176b43815927a12f54b659ac742fcf2582f98623b01e4486fee4275c6156',
    );
    assert.equal(toHex(cb.keyId), '030000000000000000000004b000000000');
    assert.equal(cb.output.features, 'Coinbase');
    assert.deepEqual(cb.kernel.features, { kind: 'Coinbase' });
    // An output hashes without its proof, so it hashes like the input that spends it.
    assert.equal(hashOf(writeOutput, cb.output, params).length, 32);
    assert.equal(
      toHex(hashOf(writeOutput, cb.output, params)),
      toHex(hashOf(writeOutput, { ...cb.output, proof: new Uint8Array(675) }, params)),
    );
  });

  it('a compact signature half at or above the group order is refused', () => {
    const bad = {
      features: 'Coinbase',
      excess: '09f57ba37fb4da9f91d4443563d399f70e76e895dc319c9b11b3c87b46947c6aa6',
      excess_sig: `${'ff'.repeat(32)}${'01'.repeat(32)}`,
    };
    assert.throws(
      () => kernelFromJson(bad, 'kernel'),
      (e: unknown) =>
        e instanceof JsonFormError && e.message === 'kernel.excess_sig: malformed signature',
    );
  });
});
