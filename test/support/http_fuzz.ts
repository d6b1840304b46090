// Generated hostile HTTP requests for the surface fuzz tests (test/fuzz/http_surfaces.test.ts):
// JSON-RPC calls with random params, deep nesting, huge and negative numbers, invalid UTF-8,
// truncated and random bodies, batches, wrong verbs and paths, oversized bodies. Deterministic
// for a seed (fuzz_input.ts's Rng).
import type { Rng } from './fuzz_input.js';

export interface FuzzRequest {
  readonly method: string;
  readonly path: string;
  readonly body: Uint8Array | null;
  readonly headers: Readonly<Record<string, string>>;
}

const NUMBERS = [
  '0',
  '-0',
  '-1',
  '1.5',
  '1e3',
  '-1e-7',
  '18446744073709551615',
  '18446744073709551616',
  '-9223372036854775809',
  `1${'0'.repeat(400)}`,
  '1e999999',
  '0.0000000000000000000000000001',
  '2e-400',
  '01',
  '+1',
  'NaN',
  'Infinity',
];

const STRINGS = [
  '""',
  '"x"',
  `"${'ab'.repeat(33)}"`,
  `"${'0'.repeat(66)}"`,
  '"0x08"',
  '"\\u0000"',
  '"\\ud800"',
  '"\\uDFFF\\uD800"',
  '"é€😀"',
  '"\\"\\\\\\/\\b\\f\\n\\r\\t"',
  `"${'z'.repeat(5000)}"`,
  '"1.2.3.4:3414"',
  '"[::1]:1"',
];

/** A random JSON text (valid or nearly so), at most `depth` levels deep. */
function jsonText(rng: Rng, depth: number): string {
  switch (depth <= 0 ? rng.below(4) : rng.below(7)) {
    case 0:
      return rng.pick(NUMBERS);
    case 1:
      return rng.pick(STRINGS);
    case 2:
      return rng.pick(['true', 'false', 'null']);
    case 3:
      return String(rng.u32() - 0x8000_0000);
    case 4:
    case 5: {
      const n = rng.below(6);
      return `[${Array.from({ length: n }, () => jsonText(rng, depth - 1)).join(',')}]`;
    }
    default: {
      const n = rng.below(5);
      const keys = ['commits', 'id', 'height', 'hash', 'max', 'a', '__proto__', 'constructor'];
      return `{${Array.from({ length: n }, () => `"${rng.pick(keys)}":${jsonText(rng, depth - 1)}`).join(',')}}`;
    }
  }
}

function envelope(method: string, params: string, id: string): string {
  return `{"jsonrpc":"2.0","method":"${method}","params":${params},"id":${id}}`;
}

const enc = (s: string): Uint8Array => Buffer.from(s, 'utf8');

/** A JSON-RPC body of one of a dozen hostile kinds. */
function rpcBody(rng: Rng, methods: readonly string[]): Uint8Array {
  const method =
    rng.below(10) === 0 ? rng.pick(['', 'x', 'get_tip ', 'GET_TIP']) : rng.pick(methods);
  const id = rng.pick(['1', '"a"', 'null', '-1', '1.5', '18446744073709551616', '{}', '[]']);
  switch (rng.below(12)) {
    case 0: {
      const n = 1 + rng.below(20_000);
      const open = rng.below(2) === 0 ? '['.repeat(n) : '{"a":'.repeat(n);
      return enc(envelope(method, `[${open}`, id));
    }
    case 1: {
      const n = 1 + rng.below(3000);
      return enc(envelope(method, `[${'['.repeat(n)}1${']'.repeat(n)}]`, id));
    }
    case 2: {
      const text = envelope(method, `[${jsonText(rng, 3)}]`, id);
      return enc(text.slice(0, rng.below(text.length)));
    }
    case 3: {
      const bytes = new Uint8Array(1 + rng.below(512));
      rng.fill(bytes);
      return bytes;
    }
    case 4: {
      // Invalid UTF-8 inside a string and around it.
      const head = enc(`{"jsonrpc":"2.0","method":"${method}","params":["`);
      const bad = rng.pick([
        [0xff],
        [0xc0, 0xaf],
        [0xed, 0xa0, 0x80],
        [0xf4, 0x90, 0x80, 0x80],
        [0x80],
      ]);
      return Buffer.concat([head, Uint8Array.from(bad), enc(`"],"id":${id}}`)]);
    }
    case 5: {
      const calls = Array.from({ length: rng.below(40) }, () =>
        envelope(rng.pick(methods), `[${jsonText(rng, 2)}]`, id),
      );
      return enc(`[${calls.join(',')}]`);
    }
    case 6:
      return enc(envelope(method, jsonText(rng, 4), id));
    case 7:
      return enc(rng.pick(['', ' ', 'null', '[]', '{}', '1', '"x"', '{"method":1}', '[[]]']));
    case 8: {
      const args = Array.from({ length: rng.below(7) }, () =>
        rng.pick([...NUMBERS, ...STRINGS, 'null']),
      );
      return enc(envelope(method, `[${args.join(',')}]`, id));
    }
    default:
      return enc(
        envelope(
          method,
          `[${Array.from({ length: rng.below(6) }, () => jsonText(rng, 2)).join(',')}]`,
          id,
        ),
      );
  }
}

const PATH_NOISE = ['/x', '/', '//', '/%00', '/..', '/%2e%2e/', '?a=b', '?id=', '#f', '/v1/', '/ '];

/** A request for `path` (a JSON-RPC surface when `methods` is given, else /v1 REST paths). */
export function fuzzRequest(
  rng: Rng,
  target: { readonly paths: readonly string[]; readonly methods: readonly string[] | null },
  headers: Readonly<Record<string, string>>,
  maxBody: number,
): FuzzRequest {
  let path = rng.pick(target.paths);
  if (rng.below(8) === 0) path += rng.pick(PATH_NOISE);
  if (rng.below(50) === 0) path = `/${'a'.repeat(rng.below(20_000))}`;
  const verb =
    rng.below(10) === 0 ? rng.pick(['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD']) : null;
  const auth =
    rng.below(20) === 0
      ? { authorization: rng.pick(['Basic', 'Basic !!!', 'Bearer x', 'Basic bm9kZTp4']) }
      : headers;
  if (rng.below(20_000) === 0)
    return {
      method: 'POST',
      path,
      body: new Uint8Array(maxBody + 1 + rng.below(1024)),
      headers: auth,
    };
  if (target.methods === null) {
    const method = verb ?? (rng.below(4) === 0 ? 'POST' : 'GET');
    const body = method === 'POST' ? rpcBody(rng, ['x']) : null;
    return {
      method,
      path:
        path +
        (rng.below(3) === 0
          ? `?${rng.pick(['n=', 'n=-1', `n=${rng.pick(NUMBERS)}`, 'start_index=1&max=18446744073709551616', 'id=zz,08', 'min_height=x'])}`
          : ''),
      body,
      headers: auth,
    };
  }
  const method = verb ?? 'POST';
  return {
    method,
    path,
    body: method === 'GET' || method === 'HEAD' ? null : rpcBody(rng, target.methods),
    headers: auth,
  };
}
