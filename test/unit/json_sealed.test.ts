// Sealed JSON values print exactly as the same value unsealed, at every depth and in every
// layout, from their cached text; sealing freezes every level so the cache cannot go stale.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSealed, sealJson } from '../../core/json/sealed.js';
import { stringifyJson } from '../../core/json/stringify.js';
import type { JsonValue } from '../../core/json/value.js';

function sample(): { [k: string]: JsonValue } {
  return {
    z: 1n,
    height: 18446744073709551615n,
    list: [1, 'two', { b: true, a: null }],
    empty: {},
    none: [],
  };
}

const LAYOUTS = [{}, { pretty: true }, { sortKeys: true }, { pretty: true, sortKeys: true }];

describe('sealJson', () => {
  it('prints exactly like the unsealed value, nested at several depths, twice', () => {
    const sealed = sealJson(sample());
    for (const options of LAYOUTS) {
      for (const wrap of [
        (v: JsonValue) => v,
        (v: JsonValue) => ({ result: { Ok: v } }),
        (v: JsonValue) => [[v, v]],
      ]) {
        const want = stringifyJson(wrap(sample()), options);
        assert.equal(stringifyJson(wrap(sealed), options), want);
        assert.equal(stringifyJson(wrap(sealed), options), want); // from the cache
      }
    }
  });

  it('the pretty text depends on depth: the cache keeps one text per depth', () => {
    const sealed = sealJson({ a: [1] });
    const top = stringifyJson(sealed, { pretty: true });
    const nested = stringifyJson({ x: sealed }, { pretty: true });
    assert.equal(top, '{\n  "a": [\n    1\n  ]\n}');
    assert.equal(nested, '{\n  "x": {\n    "a": [\n      1\n    ]\n  }\n}');
    assert.equal(stringifyJson(sealed, { pretty: true }), top);
  });

  it('freezes every level and marks every container', () => {
    const v = sample();
    const sealed = sealJson(v);
    assert.equal(sealed, v);
    const list = sealed.list as JsonValue[];
    const inner = list[2] as { [k: string]: JsonValue };
    for (const c of [sealed, list, inner, sealed.empty as object]) {
      assert.ok(Object.isFrozen(c));
      assert.ok(isSealed(c));
    }
    assert.throws(() => {
      inner.b = false;
    }, TypeError);
    assert.equal(stringifyJson(inner), '{"b":true,"a":null}');
  });

  it('a frozen but unsealed value is not cached', () => {
    const frozen = Object.freeze({ a: 1 });
    assert.equal(isSealed(frozen), false);
  });
});
