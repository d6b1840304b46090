// The JSON-RPC layer against the cases of node-api reference §2 and §13 items 7–8: exact bodies.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stringifyJson } from '../../core/json/stringify.js';
import type { JsonValue } from '../../core/json/value.js';
import { handleJsonRpc, methodTable, RpcFailure } from '../../gateway/jsonrpc.js';

const u64 = (v: JsonValue): bigint => {
  if (typeof v === 'bigint' && v >= 0n) return v;
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return BigInt(v);
  throw new Error('not a u64');
};
const opt = (v: JsonValue): bigint | null => (v === null ? null : u64(v));

const methods = methodTable([
  { name: 'get_pool_size', params: [], run: async () => 1 },
  {
    name: 'get_header',
    params: [
      { name: 'height', decode: opt },
      { name: 'hash', decode: (v) => v },
      { name: 'commit', decode: (v) => v },
    ],
    run: async ([h]) => {
      if (h === 5n) throw new RpcFailure({ kind: 'NotFound' });
      return { height: h as bigint };
    },
  },
  { name: 'unit', params: [], run: async () => null },
  {
    name: 'fail',
    params: [],
    run: async () => {
      throw new Error('boom');
    },
  },
]);

async function call(
  body: string,
): Promise<{ status: number; body: string; headers: readonly (readonly [string, string])[] }> {
  const r = await handleJsonRpc(new TextEncoder().encode(body), methods);
  return { status: r.status, body: r.body, headers: r.headers };
}

const pretty = (v: JsonValue): string => stringifyJson(v, { pretty: true });

describe('JSON-RPC envelopes', () => {
  it('Ok result, pretty, keys sorted, CORS and content type', async () => {
    const r = await call('{"jsonrpc":"2.0","method":"get_pool_size","params":[],"id":1}');
    assert.equal(r.status, 200);
    assert.equal(r.body, '{\n  "id": 1,\n  "jsonrpc": "2.0",\n  "result": {\n    "Ok": 1\n  }\n}');
    assert.deepEqual(r.headers, [
      ['content-type', 'application/json'],
      ['access-control-allow-origin', '*'],
      ['access-control-allow-headers', 'Content-Type, Authorization'],
    ]);
  });

  it('params: [], {}, null and absent are all zero arguments; unit results are Ok null', async () => {
    for (const params of ['"params":[],', '"params":{},', '"params":null,', '']) {
      const r = await call(`{"jsonrpc":"2.0","method":"unit",${params}"id":"a"}`);
      assert.equal(r.body, pretty({ id: 'a', jsonrpc: '2.0', result: { Ok: null } }));
    }
  });

  it('Err results: NotFound and Internal', async () => {
    const nf = await call('{"jsonrpc":"2.0","method":"get_header","params":[5,null,null],"id":1}');
    assert.equal(nf.body, pretty({ id: 1, jsonrpc: '2.0', result: { Err: 'NotFound' } }));
    const internal = await call('{"jsonrpc":"2.0","method":"fail","params":[],"id":1}');
    assert.equal(
      internal.body,
      pretty({ id: 1, jsonrpc: '2.0', result: { Err: { Internal: 'boom' } } }),
    );
  });

  it('u64 ids and values stay exact', async () => {
    const r = await call(
      '{"jsonrpc":"2.0","method":"get_header","params":[18446744073709551615,null,null],"id":18446744073709551615}',
    );
    assert.match(r.body, /"id": 18446744073709551615,/);
    assert.match(r.body, /"height": 18446744073709551615/);
  });

  it('the response omits jsonrpc when the request did', async () => {
    const r = await call('{"method":"get_pool_size","params":[],"id":7}');
    assert.equal(r.body, pretty({ id: 7, result: { Ok: 1 } }));
  });
});

const err = (code: number, message: string, id: JsonValue, version = true): string =>
  pretty(
    version ? { error: { code, message }, id, jsonrpc: '2.0' } : { error: { code, message }, id },
  );

describe('JSON-RPC errors', () => {
  it('-32601 unknown method', async () => {
    assert.equal(
      (await call('{"jsonrpc":"2.0","method":"nope","params":[],"id":3}')).body,
      err(-32601, 'Method not found', 3),
    );
  });

  it('-32602 wrong count (labels swapped as in Epic), bad argument, named params', async () => {
    const count = await call('{"jsonrpc":"2.0","method":"get_header","params":[5],"id":1}');
    assert.equal(count.body, err(-32602, 'WrongNumberOfArgs. Expected 1. Actual 3', 1));
    const bad = await call(
      '{"jsonrpc":"2.0","method":"get_header","params":["x",null,null],"id":1}',
    );
    assert.equal(bad.body, err(-32602, 'InvalidArgStructure "height" at position 0.', 1));
    const missing = await call(
      '{"jsonrpc":"2.0","method":"get_header","params":{"height":1,"hash":null},"id":1}',
    );
    assert.equal(missing.body, err(-32602, 'MissingNamedParameter commit', 1));
    const extra = await call(
      '{"jsonrpc":"2.0","method":"get_header","params":{"height":1,"hash":null,"commit":null,"x":1},"id":1}',
    );
    assert.equal(extra.body, err(-32602, 'ExtraNamedParameter x', 1));
    const named = await call(
      '{"jsonrpc":"2.0","method":"get_header","params":{"commit":null,"hash":null,"height":2},"id":1}',
    );
    assert.equal(named.body, pretty({ id: 1, jsonrpc: '2.0', result: { Ok: { height: 2 } } }));
    const zero = await call('{"jsonrpc":"2.0","method":"get_header","params":null,"id":1}');
    assert.equal(zero.body, err(-32602, 'WrongNumberOfArgs. Expected 0. Actual 3', 1));
  });

  it('-32600 invalid calls carry their id when it parses, and no jsonrpc key', async () => {
    assert.equal((await call('{}')).body, err(-32600, 'Invalid request', null, false));
    const extraKey = await call('{"jsonrpc":"2.0","method":"get_tip","params":[],"id":7,"x":1}');
    assert.equal(extraKey.body, err(-32600, 'Invalid request', 7, false));
    const extraField = await call(
      '{"id":120,"method":"my_method","params":["foo","bar"],"extra_field":[]}',
    );
    assert.equal(extraField.body, err(-32600, 'Invalid request', 120, false));
    assert.equal(
      (await call('{"jsonrpc":"1.0","method":"unit","id":2}')).body,
      err(-32600, 'Invalid request', 2, false),
    );
    assert.equal(
      (await call('{"jsonrpc":"2.0","method":"unit","params":5,"id":3}')).body,
      err(-32600, 'Invalid request', 3, false),
    );
    assert.equal((await call('[]')).body, err(-32600, 'Invalid request', null, false));
  });

  it('an id that is no Id (negative, -0, fraction, beyond u64) fails the whole request', async () => {
    for (const id of ['-1', '-0', '1.5', '18446744073709551616', '[]', '{}', 'true']) {
      for (const body of [
        `{"jsonrpc":"2.0","method":"unit","id":${id}}`,
        `{"method":"unit","id":${id},"x":1}`,
        `[{"method":"unit","id":1},{"method":"unit","id":${id}}]`,
      ])
        assert.equal((await call(body)).body, err(-32700, 'Parse error', null), body);
    }
  });

  it('"jsonrpc": null is no version: a valid call whose reply has no jsonrpc key', async () => {
    assert.equal(
      (await call('{"jsonrpc":null,"method":"get_pool_size","id":8}')).body,
      pretty({ id: 8, result: { Ok: 1 } }),
    );
    for (const v of ['"2"', '2', '"2.0 "', '{}'])
      assert.equal(
        (await call(`{"jsonrpc":${v},"method":"get_pool_size","id":8}`)).body,
        err(-32600, 'Invalid request', 8, false),
      );
  });

  it('ExtraNamedParameter names the smallest extra key in byte order (a BTreeMap)', async () => {
    const r = await call(
      '{"method":"get_header","params":{"zz":1,"height":1,"hash":null,"commit":null,"10":1,"9":1,"aa":2},"id":1}',
    );
    assert.equal(r.body, err(-32602, 'ExtraNamedParameter 10', 1, false));
    const r2 = await call(
      '{"method":"get_header","params":{"zz":1,"height":1,"hash":null,"commit":null,"aa":2},"id":1}',
    );
    assert.equal(r2.body, err(-32602, 'ExtraNamedParameter aa', 1, false));
  });

  it('-32700 for JSON that is not a request', async () => {
    for (const body of ['"abc"', '42', 'true', 'null']) {
      assert.equal((await call(body)).body, err(-32700, 'Parse error', null));
    }
  });

  it('a body that is not JSON is HTTP 500 text with CORS headers and no content type', async () => {
    const r = await call('{"jsonrpc":');
    assert.equal(r.status, 500);
    assert.equal(
      r.body,
      'Request error: Invalid request body: EOF while parsing a value at line 1 column 11',
    );
    assert.deepEqual(r.headers, [
      ['access-control-allow-origin', '*'],
      ['access-control-allow-headers', 'Content-Type, Authorization'],
    ]);
  });
});

describe('JSON-RPC batches and notifications', () => {
  it('batch of calls with ids 1, 2, null and a notification: three replies in order', async () => {
    const r = await call(
      '[{"jsonrpc":"2.0","method":"get_pool_size","params":[],"id":1},' +
        '{"jsonrpc":"2.0","method":"nope","params":[],"id":2},' +
        '{"jsonrpc":"2.0","method":"get_pool_size","params":[],"id":null},' +
        '{"jsonrpc":"2.0","method":"get_pool_size","params":[]}]',
    );
    assert.equal(
      r.body,
      pretty([
        { id: 1, jsonrpc: '2.0', result: { Ok: 1 } },
        { error: { code: -32601, message: 'Method not found' }, id: 2, jsonrpc: '2.0' },
        { id: null, jsonrpc: '2.0', result: { Ok: 1 } },
      ]),
    );
  });

  it('runs the calls of a batch in order, each after the one before has finished', async () => {
    let pool = 0;
    const table = methodTable([
      {
        name: 'push',
        params: [],
        run: async () => {
          await new Promise((r) => setTimeout(r, 20));
          pool++;
          return null;
        },
      },
      { name: 'size', params: [], run: async () => pool },
    ]);
    const r = await handleJsonRpc(
      new TextEncoder().encode(
        '[{"method":"push","id":1},{"method":"size","id":2},{"method":"push"},{"method":"size","id":3}]',
      ),
      table,
    );
    assert.equal(
      r.body,
      pretty([
        { id: 1, result: { Ok: null } },
        { id: 2, result: { Ok: 1 } },
        { id: 3, result: { Ok: 2 } },
      ]),
    );
  });

  it('a lone notification, and a batch of notifications, answer []', async () => {
    assert.equal((await call('{"jsonrpc":"2.0","method":"get_pool_size","params":[]}')).body, '[]');
    assert.equal((await call('[{"jsonrpc":"2.0","method":"unit"},{"method":"unit"}]')).body, '[]');
  });

  it('a scalar element makes the whole batch unparsable (-32700), as jsonrpc-core', async () => {
    for (const body of [
      '[1,{"jsonrpc":"2.0","method":"unit","id":4}]',
      '[{"method":"unit"},"x",2]',
    ])
      assert.equal((await call(body)).body, err(-32700, 'Parse error', null));
  });

  it('an array element of a batch is read as a call in sequence form', async () => {
    const r = await call('[[],[null,"unit",null,5],["2.0","unit"],{"method":"unit","id":6}]');
    assert.equal(
      r.body,
      pretty([
        { error: { code: -32600, message: 'Invalid request' }, id: null },
        { id: 5, result: { Ok: null } },
        { id: 6, result: { Ok: null } },
      ]),
    );
  });

  it('a top-level array that reads as one call in sequence form is a single call', async () => {
    assert.equal(
      (await call('["2.0","get_pool_size",[],7]')).body,
      pretty({ id: 7, jsonrpc: '2.0', result: { Ok: 1 } }),
    );
    assert.equal((await call('[null,"unit"]')).body, '[]');
    assert.equal((await call('["abc"]')).body, err(-32600, 'Invalid request', 'abc', false));
    assert.equal((await call('[null]')).body, err(-32600, 'Invalid request', null, false));
    // Five elements fit no call, and the elements are no calls either.
    assert.equal((await call('[null,"unit",null,5,1]')).body, err(-32700, 'Parse error', null));
  });
});

describe('an extended form beside an Epic method', () => {
  const table = methodTable([
    {
      name: 'template',
      params: [],
      pure: true,
      run: async () => 'epic',
      extended: {
        name: 'template',
        params: [
          {
            name: 'poll',
            decode: (v) => {
              if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('no');
              return v;
            },
          },
        ],
        run: async ([p]) => ({ ours: p as JsonValue }),
      },
    },
  ]);
  const ask = async (params: string) => {
    const usage = { impure: false };
    const body = `{"jsonrpc":"2.0","method":"template","params":${params},"id":1}`;
    const r = await handleJsonRpc(new TextEncoder().encode(body), table, usage);
    return { body: JSON.parse(r.body) as JsonValue, impure: usage.impure };
  };

  it("answers Epic's arity with Epic's form, which stays pure", async () => {
    assert.deepEqual(await ask('[]'), {
      body: { id: 1, jsonrpc: '2.0', result: { Ok: 'epic' } },
      impure: false,
    });
  });

  it('answers its own arity, positional or named, with the extension (never pure)', async () => {
    const ours = {
      body: { id: 1, jsonrpc: '2.0', result: { Ok: { ours: { a: 1 } } } },
      impure: true,
    };
    assert.deepEqual(await ask('[{"a":1}]'), ours);
    assert.deepEqual(await ask('{"poll":{"a":1}}'), ours);
  });

  it("gives Epic's error to what the extension cannot take", async () => {
    const epic = (message: string) => ({
      body: { error: { code: -32602, message }, id: 1, jsonrpc: '2.0' },
      impure: false,
    });
    assert.deepEqual(await ask('[1]'), epic('WrongNumberOfArgs. Expected 1. Actual 0'));
    assert.deepEqual(await ask('{"other":{}}'), epic('ExtraNamedParameter other'));
    assert.deepEqual(await ask('[{}, 2]'), epic('WrongNumberOfArgs. Expected 2. Actual 0'));
  });
});
