import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JsonError, parseJson } from '../../core/json/parse.js';
import { compareUtf8, quote, stringifyJson } from '../../core/json/stringify.js';
import { isJsonInteger, isJsonObject } from '../../core/json/value.js';

function parseError(text: string, limits?: { maxLength?: number; maxDepth?: number }): JsonError {
  try {
    parseJson(text, limits);
  } catch (e) {
    assert.ok(e instanceof JsonError, `expected JsonError for ${JSON.stringify(text)}, got ${e}`);
    return e;
  }
  return assert.fail(`parsed without error: ${JSON.stringify(text).slice(0, 80)}`);
}

function assertSyntax(text: string, message: string): void {
  const e = parseError(text);
  assert.equal(e.kind, 'Syntax', text);
  assert.equal(e.message, message, text);
  assert.match(e.message, / at line \d+ column \d+$/);
}

describe('parseJson numbers', () => {
  it('keeps safe integers as numbers and larger ones as exact bigints', () => {
    assert.equal(parseJson('9007199254740991'), 9007199254740991);
    assert.equal(parseJson('-9007199254740991'), -9007199254740991);
    assert.equal(parseJson('9007199254740992'), 9007199254740992n);
    assert.equal(parseJson('-9007199254740992'), -9007199254740992n);
    assert.equal(parseJson('-9007199254740993'), -9007199254740993n);
    assert.equal(parseJson('18446744073709551615'), 18446744073709551615n);
    assert.equal(parseJson('1000000000000000'), 1e15);
    assert.equal(typeof parseJson('1000000000000000'), 'number');
    assert.deepEqual(parseJson('[0,-0,7,123456789012345]'), [0, -0, 7, 123456789012345]);
    assert.ok(Object.is(parseJson('-0'), -0));
  });

  it('reads fractions and exponents as numbers', () => {
    assert.equal(parseJson('1.5'), 1.5);
    assert.equal(parseJson('-0.25e2'), -25);
    assert.equal(parseJson('1E+2'), 100);
    assert.equal(parseJson('1e-400'), 0);
    // 16+ digits with a fraction: a float (serde_json's f64), never a bigint.
    assert.equal(parseJson('12345678901234567890.5'), 1.2345678901234567e19);
  });

  it('rejects numbers serde_json rejects', () => {
    assertSyntax('01', 'invalid number at line 1 column 2');
    assertSyntax('-01', 'invalid number at line 1 column 3');
    assertSyntax('-a', 'invalid number at line 1 column 2');
    assertSyntax('-', 'EOF while parsing a value at line 1 column 1');
    assertSyntax('1.', 'EOF while parsing a value at line 1 column 2');
    assertSyntax('[1.]', 'invalid number at line 1 column 4');
    assertSyntax('1e', 'EOF while parsing a value at line 1 column 2');
    assertSyntax('1e+x', 'invalid number at line 1 column 4');
    assertSyntax('+1', 'expected value at line 1 column 1');
    assertSyntax('.5', 'expected value at line 1 column 1');
    assertSyntax('NaN', 'expected value at line 1 column 1');
    assertSyntax('Infinity', 'expected value at line 1 column 1');
    assertSyntax('-Infinity', 'invalid number at line 1 column 2');
    assertSyntax('1e400', 'number out of range at line 1 column 5');
    assertSyntax(`[${'9'.repeat(400)}]`, 'number out of range at line 1 column 401');
  });
});

describe('parseJson syntax errors', () => {
  it('reports serde_json messages with line and column', () => {
    assertSyntax('', 'EOF while parsing a value at line 1 column 0');
    assertSyntax('   ', 'EOF while parsing a value at line 1 column 3');
    assertSyntax('[1,2,', 'EOF while parsing a value at line 1 column 5');
    assertSyntax('[1', 'EOF while parsing a list at line 1 column 2');
    assertSyntax('{"a":1', 'EOF while parsing an object at line 1 column 6');
    assertSyntax('{"a"', 'EOF while parsing an object at line 1 column 4');
    assertSyntax('{', 'EOF while parsing an object at line 1 column 1');
    assertSyntax('{"a":', 'EOF while parsing a value at line 1 column 5');
    assertSyntax('"abc', 'EOF while parsing a string at line 1 column 4');
    assertSyntax('[1,]', 'trailing comma at line 1 column 4');
    assertSyntax('{"a":1,}', 'trailing comma at line 1 column 8');
    assertSyntax('{"a":1 "b":2}', 'expected `,` or `}` at line 1 column 8');
    assertSyntax('[1 2]', 'expected `,` or `]` at line 1 column 4');
    assertSyntax('{"a" 1}', 'expected `:` at line 1 column 6');
    assertSyntax('{1:2}', 'key must be a string at line 1 column 2');
    assertSyntax('{"a":1,2:3}', 'key must be a string at line 1 column 8');
    assertSyntax('[,1]', 'expected value at line 1 column 2');
    assertSyntax('{"a":1} x', 'trailing characters at line 1 column 9');
    assertSyntax('[1] [2]', 'trailing characters at line 1 column 5');
    assertSyntax('tru', 'EOF while parsing a value at line 1 column 3');
    assertSyntax('trux', 'expected ident at line 1 column 4');
    assertSyntax('nul', 'EOF while parsing a value at line 1 column 3');
    assertSyntax('[1] // comment', 'trailing characters at line 1 column 5');
    assertSyntax('/* c */ 1', 'expected value at line 1 column 1');
    assertSyntax("{'a':1}", 'key must be a string at line 1 column 2');
    assertSyntax('\uFEFF1', 'expected value at line 1 column 1');
  });

  it('counts lines, and columns in UTF-8 bytes like serde_json', () => {
    assertSyntax('[\n  1,\n  x]', 'expected value at line 3 column 3');
    assertSyntax('{\n"a":1\n}\n,', 'trailing characters at line 4 column 1');
    assertSyntax('["é", x]', 'expected value at line 1 column 8');
    assertSyntax('["😀", x]', 'expected value at line 1 column 10');
    const e = parseError('[\n  1,\n  x]');
    assert.equal(e.line, 3);
    assert.equal(e.column, 3);
    assert.equal(e.position, 9);
  });

  it('accepts the four JSON whitespace characters around and inside values', () => {
    assert.deepEqual(parseJson(' \t\r\n[ 1 ,\n\t{ "a" : true } ] \n'), [1, { a: true }]);
  });
});

describe('parseJson strings', () => {
  it('decodes every escape', () => {
    assert.equal(
      parseJson('"\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u0041 \\u00e9 \\uffff"'),
      '" \\ / \b \f \n \r \t A é \uffff',
    );
    assert.equal(parseJson('"\\ud83d\\ude00"'), '😀');
    assert.equal(parseJson('"\\uD83D\\uDE00x"'), '😀x');
    assert.equal(parseJson('"raw é 😀 \u007f \u2028"'), 'raw é 😀 \u007f \u2028');
  });

  it('rejects control characters, bad escapes and lone surrogates', () => {
    const control = 'control character (\\u0000-\\u001F) found while parsing a string';
    assertSyntax('"a\u0000"', `${control} at line 1 column 3`);
    assertSyntax('"a\u001f"', `${control} at line 1 column 3`);
    assertSyntax('"a\tb"', `${control} at line 1 column 3`);
    assertSyntax('"a\nb"', `${control} at line 2 column 0`);
    assertSyntax('"\\x"', 'invalid escape at line 1 column 3');
    assertSyntax("'a'", 'expected value at line 1 column 1');
    assertSyntax('"\\u12g4"', 'invalid escape at line 1 column 7');
    assertSyntax('"\\u12', 'EOF while parsing a string at line 1 column 5');
    assertSyntax('"\\', 'EOF while parsing a string at line 1 column 2');
    assertSyntax('"\\udc00"', 'lone leading surrogate in hex escape at line 1 column 7');
    assertSyntax('"\\ud800"', 'unexpected end of hex escape at line 1 column 8');
    assertSyntax('"\\ud800\\n"', 'unexpected end of hex escape at line 1 column 9');
    assertSyntax('"\\ud800\\u0041"', 'lone leading surrogate in hex escape at line 1 column 13');
    assertSyntax('{"\\ud800":1}', 'unexpected end of hex escape at line 1 column 9');
  });
});

describe('parseJson objects', () => {
  it('keeps the last of duplicate keys in the position of the first', () => {
    const v = parseJson('{"a":1,"b":2,"a":3}');
    assert.deepEqual(v, { a: 3, b: 2 });
    assert.deepEqual(Object.keys(v as object), ['a', 'b']);
  });

  it('makes "__proto__" an own data property without touching the prototype', () => {
    const text = '{"__proto__":{"polluted":true},"x":1}';
    const v = parseJson(text) as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(v), Object.prototype);
    assert.deepEqual(Object.keys(v), ['__proto__', 'x']);
    assert.deepEqual(Object.getOwnPropertyDescriptor(v, '__proto__')?.value, { polluted: true });
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.deepEqual(v, JSON.parse(text));
    assert.equal(stringifyJson(v), text);
    const dup = parseJson('{"__proto__":1,"__proto__":[2]}');
    assert.deepEqual(Object.getOwnPropertyDescriptor(dup, '__proto__')?.value, [2]);
  });
});

describe('parseJson limits', () => {
  it('rejects 1,000,000 opening brackets cleanly', () => {
    for (const open of ['[', '{"a":']) {
      const e = parseError(open.repeat(1_000_000));
      assert.equal(e.kind, 'TooDeep');
      assert.match(e.message, /^recursion limit exceeded at line 1 column \d+$/);
    }
  });

  it('allows exactly maxDepth levels', () => {
    const ok = `${'['.repeat(128)}${']'.repeat(128)}`;
    assert.equal(stringifyJson(parseJson(ok)), ok);
    const deep = `${'['.repeat(129)}${']'.repeat(129)}`;
    const e = parseError(deep);
    assert.equal(e.kind, 'TooDeep');
    assert.equal(e.message, 'recursion limit exceeded at line 1 column 129');
    assert.equal(parseError('[[1]]', { maxDepth: 1 }).kind, 'TooDeep');
    assert.equal(parseError('{"a":{}}', { maxDepth: 1 }).kind, 'TooDeep');
    assert.deepEqual(parseJson('[[1]]', { maxDepth: 2 }), [[1]]);
  });

  it('rejects text longer than maxLength before parsing it', () => {
    assert.deepEqual(parseJson('[1, 2]', { maxLength: 6 }), [1, 2]);
    const e = parseError('[1, 2]', { maxLength: 5 });
    assert.equal(e.kind, 'TooLarge');
    assert.equal(e.message, 'JSON text of 6 characters exceeds the limit of 5');
    // Not parsed at all: a syntax error beyond the limit is not what is reported.
    assert.equal(parseError('x'.repeat(16 * 1024 * 1024 + 1)).kind, 'TooLarge');
  });

  it('throws only JsonError, whatever the input', () => {
    assert.throws(() => parseJson(42 as unknown as string), JsonError);
    assert.throws(() => parseJson('['.repeat(1000), { maxDepth: 10_000 }), JsonError);
  });
});

// For data without bigints, JSON.parse and JSON.stringify (compact, and with 2-space indent) are
// exact oracles: same values, and serde_json's layout.
describe('agreement with the native JSON functions', () => {
  it('parses hex strings and digit runs inside strings exactly like JSON.parse', () => {
    const sample = JSON.stringify({
      hash: '0a1b2c3d4e5f67890123456789012345678901234567890123456789abcdef01',
      commit: '08c6a4e1d1e4f1a6d2b8f0a7c3e9b5d4a1f2e3d4c5b6a7980112233445566778899',
      digits: '12345678901234567890123456789',
      height: 123456,
      fee: 8000000,
      nested: [{ a: [1, -2, 3.5, 1e-7, true, false, null] }, [], {}],
      text: 'quote " backslash \\ newline \n tab \t é 😀 \u0001 \u2028',
    });
    assert.deepEqual(parseJson(sample), JSON.parse(sample));
    const big = parseJson(sample.replace('8000000', '18446744073709551615'));
    assert.deepEqual(big, { ...JSON.parse(sample), fee: 18446744073709551615n });
  });

  it('agrees on generated documents in both directions', () => {
    let seed = 7;
    const next = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    // Split by code point so the astral character stays a valid pair.
    const chars = Array.from('aZ09 "\\/\n\u0000\u001f\u007fé😀\u2028\uffff');
    const genString = (): string => {
      let str = '';
      for (let k = next(12); k > 0; k--) str += chars[next(chars.length)];
      return str;
    };
    const gen = (depth: number): unknown => {
      // A container at the top, leaves only below depth 3.
      switch (depth === 0 ? 6 + next(2) : next(depth > 3 ? 6 : 8)) {
        case 0:
          return null;
        case 1:
          return next(2) === 0;
        case 2:
          // Safe integers up to 2^52 in magnitude.
          return next(2 ** 31) * (next(2) ? 1 : -1) * 2 ** next(22);
        case 3:
          return next(1000) / 8 - 60;
        case 4:
        case 5:
          return genString();
        case 6:
          return Array.from({ length: next(7) }, () => gen(depth + 1));
        default: {
          const o: Record<string, unknown> = {};
          for (let k = next(7); k > 0; k--) o[genString()] = gen(depth + 1);
          return o;
        }
      }
    };
    for (let n = 0; n < 300; n++) {
      const v = gen(0);
      const compact = JSON.stringify(v);
      const pretty = JSON.stringify(v, null, 2);
      assert.deepEqual(parseJson(compact), JSON.parse(compact));
      assert.deepEqual(parseJson(pretty), JSON.parse(pretty));
      assert.equal(stringifyJson(v), compact);
      assert.equal(stringifyJson(v, { pretty: true }), pretty);
      assert.equal(stringifyJson(parseJson(compact)), compact);
    }
  });
});

describe('stringifyJson', () => {
  it('round-trips a compact document exactly', () => {
    const text =
      '{"header":{"height":18446744073709551615,"prev":"00ff","nonce":9007199254740992,' +
      '"pow":{"edge_bits":29,"nonces":[1,2,3]}},"body":{"inputs":[],"outputs":[{"features":' +
      '"Plain","commit":"08ab"}],"kernels":[{"fee":-9007199254740993,"ok":true,"x":null}]},' +
      '"empty":{},"s":"a\\"b\\\\c\\n\\u0001é😀"}';
    assert.equal(stringifyJson(parseJson(text)), text);
  });

  it('pretty-prints like serde_json::to_string_pretty', () => {
    const v = parseJson('{"b":[],"a":{"x":[1,2]},"c":{}}');
    assert.equal(
      stringifyJson(v, { pretty: true }),
      `{
  "b": [],
  "a": {
    "x": [
      1,
      2
    ]
  },
  "c": {}
}`,
    );
    assert.equal(stringifyJson([], { pretty: true }), '[]');
    assert.equal(stringifyJson({}, { pretty: true }), '{}');
    assert.equal(stringifyJson('x', { pretty: true }), '"x"');
    assert.equal(stringifyJson({ a: [{ b: 1n }] }, { pretty: true }), JSON_PRETTY_NESTED);
  });

  it('sorts keys at every depth in UTF-8 byte order when asked', () => {
    const v = { b: 1, a: { z: [{ y: 1, x: 2 }], c: 3 }, B: 0 };
    assert.equal(stringifyJson(v), '{"b":1,"a":{"z":[{"y":1,"x":2}],"c":3},"B":0}');
    assert.equal(
      stringifyJson(v, { sortKeys: true }),
      '{"B":0,"a":{"c":3,"z":[{"x":2,"y":1}]},"b":1}',
    );
    // U+FF21 sorts before U+1F600 in UTF-8 (and Rust), after it in UTF-16 code units.
    const astral = { '😀': 1, Ａ: 2, a: 3, ab: 4, '': 5 };
    assert.equal(stringifyJson(astral, { sortKeys: true }), '{"":5,"a":3,"ab":4,"Ａ":2,"😀":1}');
    assert.ok(compareUtf8('\uffff', '\u{10000}') < 0);
    assert.ok(compareUtf8('\u{10000}', '\u{10001}') < 0);
    assert.ok(compareUtf8('\ud7ff', '\u{10000}') < 0);
  });

  it('escapes strings exactly as serde_json', () => {
    assert.equal(quote('"'), '"\\""');
    assert.equal(quote('\\'), '"\\\\"');
    assert.equal(quote('\b\f\n\r\t'), '"\\b\\f\\n\\r\\t"');
    assert.equal(quote('\u0000\u0001\u000b\u000e\u001f'), '"\\u0000\\u0001\\u000b\\u000e\\u001f"');
    assert.equal(quote('/ \u007f é 😀 \u2028 \uffff'), '"/ \u007f é 😀 \u2028 \uffff"');
    assert.equal(quote('lone \ud800 \udfff x\udbff'), '"lone \\ud800 \\udfff x\\udbff"');
    assert.equal(quote('\ude00\ud83d'), '"\\ude00\\ud83d"');
    // Cross-check every BMP code unit against the well-formed JSON.stringify, which agrees.
    for (let c = 0; c < 0x10000; c++) {
      const s = `a${String.fromCharCode(c)}b`;
      if (quote(s) !== JSON.stringify(s)) assert.fail(`code unit ${c.toString(16)}`);
    }
    assert.equal(stringifyJson({ 'k"\n': 'v' }), '{"k\\"\\n":"v"}');
  });

  it('prints integers, bigints and non-finite numbers like serde_json Value', () => {
    assert.equal(stringifyJson([0, -0, 1, -1, 2 ** 53, 2 ** 64]), EXPECTED_INTS);
    assert.equal(stringifyJson([18446744073709551615n, -1n, 0n]), '[18446744073709551615,-1,0]');
    assert.equal(stringifyJson([Number.NaN, Infinity, -Infinity]), '[null,null,null]');
    assert.equal(stringifyJson([true, false, null, 1.5]), '[true,false,null,1.5]');
  });

  it('omits undefined properties and writes undefined array elements as null', () => {
    assert.equal(stringifyJson({ a: undefined, b: [undefined, 1], c: 2 }), '{"b":[null,1],"c":2}');
    assert.equal(stringifyJson({ a: undefined }), '{}');
    assert.equal(stringifyJson({ a: undefined }, { pretty: true }), '{}');
    // biome-ignore lint/suspicious/noSparseArray: a hole is what is tested.
    assert.equal(stringifyJson([1, , 3]), '[1,null,3]');
    assert.equal(stringifyJson(Object.create(null)), '{}');
  });

  it('rejects bytes, class instances and cycles with a TypeError naming the path', () => {
    assert.throws(
      () => stringifyJson({ a: [1, { key: new Uint8Array(2) }] }),
      new TypeError(
        'stringifyJson: unsupported Uint8Array (convert bytes to hex or arrays first) at $.a[1].key',
      ),
    );
    assert.throws(() => stringifyJson({ 'x y': new Map() }), /unsupported Map .* at \$\["x y"\]$/);
    assert.throws(() => stringifyJson({ d: new Date(0) }), TypeError);
    assert.throws(() => stringifyJson({ f: () => 1 }), /unsupported function at \$\.f$/);
    assert.throws(() => stringifyJson([Symbol('s')]), /unsupported symbol at \$\[0\]$/);
    assert.throws(() => stringifyJson(undefined), TypeError);
    const cyclic: Record<string, unknown> = { a: { b: [] } };
    ((cyclic.a as Record<string, unknown>).b as unknown[]).push(cyclic);
    assert.throws(() => stringifyJson(cyclic), /cyclic structure at \$\.a\.b\[0\]$/);
    // A shared but acyclic value is fine.
    const shared = [1];
    assert.equal(stringifyJson({ x: shared, y: shared }), '{"x":[1],"y":[1]}');
  });
});

describe('value guards', () => {
  it('tells plain objects from everything else', () => {
    assert.equal(isJsonObject({}), true);
    assert.equal(isJsonObject(parseJson('{"a":1}')), true);
    assert.equal(isJsonObject(Object.create(null)), true);
    for (const v of [null, [], 1n, 'x', new Uint8Array(1), new Date()]) {
      assert.equal(isJsonObject(v), false);
    }
    assert.equal(isJsonInteger(3), true);
    assert.equal(isJsonInteger(3n), true);
    assert.equal(isJsonInteger(3.5), false);
  });
});

const JSON_PRETTY_NESTED = `{
  "a": [
    {
      "b": 1
    }
  ]
}`;

const EXPECTED_INTS = '[0,0,1,-1,9007199254740992,18446744073709551616]';
