// The JSON-RPC envelope fast path (gateway/fast_rpc.ts): whatever it answers must be byte for
// byte what the full path (handleJsonRpc) answers, for any body; it must actually answer the
// plain envelopes pollers send; and its templates belong to one published state.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { sealJson } from '../../core/json/sealed.js';
import { FAST_MAX_BODY, FastReplies, type FullPath, scanEnvelope } from '../../gateway/fast_rpc.js';
import type { HttpResponse } from '../../gateway/http.js';
import { handleJsonRpc, type MethodTable, methodTable, RpcFailure } from '../../gateway/jsonrpc.js';
import { fullPathOver } from '../support/rpc_full_path.js';

const TIP = sealJson({
  height: 18446744073709551615n,
  last_block_pushed: 'ab'.repeat(32),
  nested: { z: [1, 2, { id: 'x' }], a: 'ü€😀 "q" \\', id: null },
});

const table: MethodTable = methodTable([
  { name: 'get_tip', params: [], pure: true, run: async () => TIP },
  { name: 'get_version', params: [], pure: true, run: async () => ({ node_version: '4.0.0' }) },
  {
    name: 'get_missing',
    params: [],
    pure: true,
    run: async () => {
      throw new RpcFailure({ kind: 'NotFound' });
    },
  },
  { name: 'impure', params: [], run: async () => 'asked an actor' },
  { name: 'with_param', params: [{ name: 'x', decode: (v) => v }], pure: true, run: async () => 1 },
]);

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

/** The full path, counting how often it runs. */
function fullPath(): { full: FullPath; runs: () => number } {
  let runs = 0;
  const full = fullPathOver(table, () => {
    runs++;
  });
  return { full, runs: () => runs };
}

/** Lets a template computation started by `reply` finish. */
const settle = (): Promise<void> => new Promise((r) => setImmediate(r));

/** A FastReplies whose templates for every pure method, with and without "jsonrpc", are made. */
async function primed(state: object): Promise<{ fast: FastReplies; full: FullPath }> {
  const fast = new FastReplies();
  const { full } = fullPath();
  for (const m of ['get_tip', 'get_version', 'get_missing'])
    for (const v of ['"jsonrpc":"2.0",', '']) {
      fast.reply('foreign', table, bytes(`{${v}"method":"${m}","id":1}`), state, full);
      await settle();
    }
  return { fast, full };
}

async function fullReply(body: Uint8Array): Promise<HttpResponse> {
  return handleJsonRpc(body, table);
}

describe('scanEnvelope', () => {
  it('reads method, the jsonrpc flag and the id as printed, in any key order', () => {
    assert.deepEqual(scanEnvelope('{"jsonrpc":"2.0","method":"get_tip","params":[],"id":1}'), {
      method: 'get_tip',
      version: true,
      id: '1',
    });
    assert.deepEqual(scanEnvelope(' {\n\t"id" : "a b/c" ,"method":"m" , "params" : { } }\r\n'), {
      method: 'm',
      version: false,
      id: '"a b/c"',
    });
    assert.deepEqual(scanEnvelope('{"params":null,"id":null,"method":"m"}'), {
      method: 'm',
      version: false,
      id: 'null',
    });
    assert.deepEqual(
      scanEnvelope('{"method":"m","id":18446744073709551615}')?.id,
      '18446744073709551615',
    );
    assert.deepEqual(scanEnvelope('{"method":"m","id":0}')?.id, '0');
  });

  it('declines everything unusual', () => {
    const declined = [
      '{"method":"m"}', // notification
      '{"id":1}',
      '{"method":"m","id":1,"id":2}', // duplicate key
      '{"method":"m","method":"m","id":1}',
      '{"method":"m","id":1,"extra":1}',
      '{"method":"m","id":18446744073709551616}', // beyond u64: Invalid request
      '{"method":"m","id":123456789012345678901}',
      '{"method":"m","id":-1}',
      '{"method":"m","id":01}',
      '{"method":"m","id":1.0}',
      '{"method":"m","id":1e3}',
      '{"method":"m","id":1E3}',
      '{"method":"m","id":true}',
      '{"method":"m","id":[1]}',
      '{"method":"m","id":"a\\"b"}', // escapes
      '{"method":"m","id":"é"}', // beyond ASCII (Latin-1 reading of UTF-8)
      '{"method":"m\\u0000","id":1}',
      '{"\\u0069d":1,"method":"m"}',
      '{"jsonrpc":"1.0","method":"m","id":1}',
      '{"jsonrpc":"2.0 ","method":"m","id":1}',
      '{"method":"m","params":[1],"id":1}',
      '{"method":"m","params":[[]],"id":1}',
      '{"method":"m","params":{"a":1},"id":1}',
      '{"method":"m","params":"x","id":1}',
      '{"method":"m","id":1,}',
      '{"method":"m","id":1} x',
      '{"method":"m","id":1}}',
      '[{"method":"m","id":1}]',
      '{"method":"m","id":1',
      '{"method":"m","id":"1',
      '{"method":1,"id":1}',
      '',
      '{}',
      '\u00ef\u00bb\u00bf{"method":"m","id":1}', // a UTF-8 BOM read as Latin-1
    ];
    for (const text of declined) assert.equal(scanEnvelope(text), undefined, text);
  });
});

describe('FastReplies', () => {
  it('answers once its template is made, and only for pure methods without params', async () => {
    const state = {};
    const fast = new FastReplies();
    const { full, runs } = fullPath();
    const body = bytes('{"jsonrpc":"2.0","method":"get_tip","params":[],"id":7}');
    assert.equal(fast.reply('foreign', table, body, state, full), undefined);
    assert.equal(fast.reply('foreign', table, body, state, full), undefined); // still being made
    await settle();
    assert.equal(runs(), 1);
    const r = fast.reply('foreign', table, body, state, full);
    assert.deepEqual(r, await fullReply(body));
    assert.match(
      r?.body ?? '',
      /^\{\n {2}"id": 7,\n {2}"jsonrpc": "2.0",\n {2}"result": \{\n {4}"Ok": \{/,
    );
    for (const m of ['impure', 'with_param', 'unknown']) {
      assert.equal(
        fast.reply('foreign', table, bytes(`{"method":"${m}","id":1}`), state, full),
        undefined,
      );
    }
    await settle();
    assert.equal(runs(), 1);
  });

  it('a new state drops the templates; no state, empty and oversize bodies are declined', async () => {
    const fast = new FastReplies();
    const { full, runs } = fullPath();
    const body = bytes('{"method":"get_version","id":"v"}');
    const a = {};
    fast.reply('owner', table, body, a, full);
    await settle();
    assert.notEqual(fast.reply('owner', table, body, a, full), undefined);
    assert.equal(fast.reply('foreign', table, body, a, full), undefined); // per surface
    assert.equal(fast.reply('owner', table, body, {}, full), undefined);
    assert.equal(fast.reply('owner', table, body, null, full), undefined);
    assert.equal(fast.reply('owner', table, new Uint8Array(0), a, full), undefined);
    const padded = `{"method":"get_version","id":1${' '.repeat(FAST_MAX_BODY)}}`;
    assert.equal(fast.reply('owner', table, bytes(padded), a, full), undefined);
    await settle();
    assert.equal(runs(), 3);
  });

  it('a template made for a state that is gone is not kept', async () => {
    const fast = new FastReplies();
    const { full } = fullPath();
    const body = bytes('{"method":"get_tip","id":1}');
    const old = {};
    fast.reply('foreign', table, body, old, full);
    const now = {};
    fast.reply('foreign', table, bytes('{"method":"get_version","id":1}'), now, full);
    await settle();
    assert.equal(fast.reply('foreign', table, body, now, full), undefined);
    await settle();
    assert.notEqual(fast.reply('foreign', table, body, now, full), undefined);
  });

  it('a reply that is not 200 is retried; one without the marker never fits', async () => {
    const fast = new FastReplies();
    const state = {};
    let status = 503;
    const body = bytes('{"method":"get_tip","id":1}');
    const flaky: FullPath = async () => ({
      response: { status, headers: [], body: '"mwnode-fast-rpc-id-3b6f0c1e"' },
      pure: true,
      ok: true,
    });
    fast.reply('foreign', table, body, state, flaky);
    await settle();
    status = 200;
    fast.reply('foreign', table, body, state, flaky);
    await settle();
    assert.deepEqual(fast.reply('foreign', table, body, state, flaky), {
      status: 200,
      headers: [],
      body: '1',
    });
    let runs = 0;
    const noMarker: FullPath = async () => {
      runs++;
      return { response: { status: 200, headers: [], body: 'no id here' }, pure: true, ok: true };
    };
    const other = {};
    for (let i = 0; i < 3; i++) {
      assert.equal(fast.reply('foreign', table, body, other, noMarker), undefined);
      await settle();
    }
    assert.equal(runs, 1);
  });
});

// Body generators: envelopes built from parts, most of them valid-looking, then damaged.
const ws = fc.string({ unit: fc.constantFrom(' ', '\t', '\n', '\r'), maxLength: 2 });
const u64Text = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map(String);
const plainAscii = fc
  .string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) })
  .filter((s) => !s.includes('"') && !s.includes('\\'));
/** Ids the fast path takes are half the draws; the rest are every other kind of JSON. */
const acceptedId = fc.oneof(
  fc.constant('null'),
  fc.nat().map(String),
  u64Text,
  plainAscii.map((s) => `"${s}"`),
);
const idText = fc.oneof(
  { arbitrary: acceptedId, weight: 12 },
  fc.bigInt({ min: 2n ** 64n - 3n, max: 2n ** 70n }).map(String),
  fc.bigInt({ min: -(2n ** 64n), max: -1n }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => JSON.stringify(x)),
  fc.string().map((s) => JSON.stringify(s)),
  fc.string({ unit: 'binary' }).map((s) => JSON.stringify(s)),
  fc.string({ unit: 'grapheme' }).map((s) => `"${s.replace(/["\\]/g, '')}"`),
  plainAscii.map((s) => `"${s}"`),
  fc.constantFrom(
    '01',
    '-0',
    '1.0',
    '1e3',
    '0x1',
    'true',
    'false',
    '[]',
    '{}',
    '[1]',
    '{"a":1}',
    '"\\u0031"',
    '""',
    '"\\ud800"',
    '9'.repeat(400),
  ),
);
/** Mostly what the fast path takes, sometimes something close to it that it must decline. */
const usually = (good: readonly string[], odd: readonly string[]) =>
  fc.oneof(
    { arbitrary: fc.constantFrom(...good), weight: 6 },
    { arbitrary: fc.constantFrom(...odd), weight: 1 },
  );
const methodText = usually(
  ['"get_tip"', '"get_version"', '"get_missing"'],
  ['"impure"', '"with_param"', '"nope"', '"get\\u005ftip"', '""', '1', 'null', '"get_tip "'],
);
const paramsText = usually(
  ['[]', '{}', 'null', '[ ]', '{\n}'],
  ['[1]', '{"a":1}', '{"x":1}', '"x"', '5', '[[]]', 'true'],
);
const versionText = usually(['"2.0"'], ['"1.0"', '2', 'null', '"2.0 "']);
const keyText = (k: string) =>
  usually([`"${k}"`], [`"\\u00${k.charCodeAt(0).toString(16)}${k.slice(1)}"`]);
const member = (k: string, v: fc.Arbitrary<string>, key = keyText(k)) =>
  fc.tuple(key, ws, ws, v).map(([name, a, b, val]) => `${name}${a}:${b}${val}`);
/** A member whose key is written plainly, as every client writes it. */
const plainMember = (k: string, v: fc.Arbitrary<string>) => member(k, v, fc.constant(`"${k}"`));

/** Members present or not (the core four usually are), sometimes a duplicate or extra key. */
const maybe = (arb: fc.Arbitrary<string>, absentWeight: number) =>
  fc.oneof({ arbitrary: fc.constant(''), weight: absentWeight }, { arbitrary: arb, weight: 4 });
const envelope = fc
  .tuple(
    maybe(member('jsonrpc', versionText), 2),
    maybe(member('method', methodText), 1),
    maybe(member('params', paramsText), 2),
    maybe(member('id', idText), 1),
    maybe(
      fc.oneof(
        member('id', idText),
        member('method', methodText),
        member('extra', fc.constant('1')),
      ),
      16,
    ),
    fc.array(ws, { minLength: 6, maxLength: 6 }),
  )
  .chain(([v, m, p, i, odd, spaces]) => {
    const present = [v, m, p, i, odd].filter((x) => x !== '');
    return fc
      .shuffledSubarray(present, { minLength: present.length })
      .map(
        (members) =>
          `${spaces[0]}{${spaces[1]}${members.join(`${spaces[2]},${spaces[3]}`)}${spaces[4]}}${spaces[5]}`,
      );
  });

/** Damage: cut it short, change one byte, wrap it in a batch or in deep nesting. */
const body = fc.oneof(
  { arbitrary: envelope.map(bytes), weight: 6 },
  {
    arbitrary: fc
      .tuple(envelope, fc.nat())
      .map(([s, n]) => bytes(s).subarray(0, n % (s.length + 1))),
    weight: 1,
  },
  {
    arbitrary: fc.tuple(envelope, fc.nat(), fc.integer({ min: 0, max: 255 })).map(([s, n, b]) => {
      const out = bytes(s);
      if (out.length > 0) out[n % out.length] = b;
      return out;
    }),
    weight: 2,
  },
  { arbitrary: envelope.map((s) => bytes(`[${s}]`)), weight: 1 },
  {
    arbitrary: fc.nat({ max: 300 }).map((n) => bytes(`${'['.repeat(n)}${']'.repeat(n)}`)),
    weight: 1,
  },
);

describe('fast path = full path', () => {
  it('for generated bodies, the fast reply is byte for byte the full one, or it declines', async () => {
    const state = {};
    const { fast, full } = await primed(state);
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const r = fast.reply('foreign', table, b, state, full);
        if (r === undefined) return;
        answered++;
        assert.deepEqual(r, await fullReply(b));
      }),
      { numRuns: 3000 },
    );
    assert.ok(answered > 100, `only ${answered} of 3000 bodies took the fast path`);
  });

  it('plain envelopes with ids of every accepted kind are answered, exactly', async () => {
    const state = {};
    const { fast, full } = await primed(state);
    const id = acceptedId;
    const plain = fc
      .tuple(
        maybe(plainMember('jsonrpc', fc.constant('"2.0"')), 1),
        maybe(plainMember('params', fc.constantFrom('[]', '{}', 'null', '[ ]')), 1),
        plainMember('method', fc.constantFrom('"get_tip"', '"get_version"', '"get_missing"')),
        plainMember('id', id),
        ws,
      )
      .chain(([v, p, m, i, space]) => {
        const present = [v, p, m, i].filter((x) => x !== '');
        return fc
          .shuffledSubarray(present, { minLength: present.length })
          .map((members) => `{${space}${members.join(`,${space}`)}}`);
      });
    await fc.assert(
      fc.asyncProperty(plain, async (text) => {
        const b = bytes(text);
        const r = fast.reply('foreign', table, b, state, full);
        assert.notEqual(r, undefined, text);
        assert.deepEqual(r, await fullReply(b));
      }),
      { numRuns: 1000 },
    );
  });
});
