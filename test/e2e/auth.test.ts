// HTTP Basic on the real node process (spec §5, §7; node reference §1.3, §1.4, §9.2, §14):
// which surfaces are guarded, the exact 401, CORS preflight before the credential, 404 before
// the credential, the optional foreign secret, a config without `api_secret_path`, and the
// owner secret file's creation and repair.
import assert from 'node:assert/strict';
import { readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  basic,
  expectStartFailure,
  type NodeProcess,
  ownerSecret,
  removeHome,
  startNodeProcess,
  tempHome,
} from '../support/node_process.js';

// Epic's 401 body, hand-indented as Epic emits it (12 and 16 spaces inside, 8 before the brace).
const UNAUTHORIZED = [
  '{',
  '            "jsonrpc": "2.0",',
  '            "error": {',
  '                "code": -32600,',
  '                "message": "Unauthorized"',
  '            },',
  '            "id": null',
  '        }',
].join('\n');

// The route index (node reference §6): 25 strings; two spaces after `get:`, one after `post:`.
const ROUTE_INDEX_LINES = [
  'get:  /v1/blocks',
  'get:  /v1/headers',
  'get:  /v1/chain',
  'post: /v1/chain/compact',
  'get:  /v1/chain/validate',
  'get:  /v1/chain/kernels/xxx?min_height=yyy&max_height=zzz',
  'get:  /v1/chain/outputs/byids?id=xxx,yyy,zzz',
  'get:  /v1/chain/outputs/byheight?start_height=101&end_height=200',
  'get:  /v1/status',
  'get:  /v1/txhashset/roots',
  'get:  /v1/txhashset/lastoutputs?n=10',
  'get:  /v1/txhashset/lastrangeproofs',
  'get:  /v1/txhashset/lastkernels',
  'get:  /v1/txhashset/outputs?start_index=1&max=100',
  'get:  /v1/txhashset/merkleproof?n=1',
  'get:  /v1/pool',
  'post: /v1/pool/push_tx',
  'post: /v1/peers/a.b.c.d:p/ban',
  'post: /v1/peers/a.b.c.d:p/unban',
  'get:  /v1/peers/all',
  'get:  /v1/peers/connected',
  'get:  /v1/peers/a.b.c.d',
  'get:  /v1/peers/onion_addresses',
  'get:  /v1/version',
  'get:  /v1/mining/block_template',
];
/** Pretty JSON with a two-space indent, written out by hand. */
const ROUTE_INDEX_BODY = `[\n${ROUTE_INDEX_LINES.map((l) => `  "${l}"`).join(',\n')}\n]`;

// `/v2/tor` knows only `push_transaction`; anything else is JSON-RPC -32601, keys sorted.
const METHOD_NOT_FOUND_ID_1 = [
  '{',
  '  "error": {',
  '    "code": -32601,',
  '    "message": "Method not found"',
  '  },',
  '  "id": 1,',
  '  "jsonrpc": "2.0"',
  '}',
].join('\n');

// Node reference §13 item 10: secret `abcdefghij0123456789`, user `node`.
const FOREIGN_SECRET = 'abcdefghij0123456789';
const FOREIGN_AUTH = 'Basic bm9kZTphYmNkZWZnaGlqMDEyMzQ1Njc4OQ==';

const SECRET_RE = /^[A-Za-z0-9]{20}$/;
const LISTENING = '"event":"listening"';

const rpcBody = (method: string): string =>
  JSON.stringify({ jsonrpc: '2.0', method, params: [], id: 1 });

interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
}

interface Call {
  readonly method?: string;
  readonly auth?: string;
  readonly body?: string;
}

async function call(node: NodeProcess, path: string, c: Call = {}): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (c.auth !== undefined) headers.authorization = c.auth;
  if (c.body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(node.url + path, {
    method: c.method ?? 'GET',
    headers,
    ...(c.body === undefined ? {} : { body: c.body }),
  });
  return { status: r.status, headers: r.headers, body: await r.text() };
}

/** Sends `text` on a fresh connection and collects every byte until the server closes it. */
function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.setTimeout(3_000, () => socket.destroy());
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
}

const accessControlHeaders = (h: Headers): string[] =>
  [...h.keys()].filter((k) => k.startsWith('access-control-'));

function assertUnauthorized(r: Reply, realm: 'NodeAPI' | 'NodeForeignAPI'): void {
  assert.equal(r.status, 401);
  assert.equal(r.body, UNAUTHORIZED);
  assert.equal(r.headers.get('www-authenticate'), `Basic realm=${realm}`);
  assert.equal(r.headers.get('content-type'), 'application/json');
  assert.deepEqual(accessControlHeaders(r.headers), []);
}

function assertNotFound(r: Reply): void {
  assert.equal(r.status, 404);
  assert.equal(r.body, '');
  assert.equal(r.headers.get('www-authenticate'), null);
  assert.equal(r.headers.get('content-type'), null);
}

function assertRpcHeaders(r: Reply): void {
  assert.equal(r.headers.get('content-type'), 'application/json');
  assert.equal(r.headers.get('access-control-allow-origin'), '*');
  assert.equal(r.headers.get('access-control-allow-headers'), 'Content-Type, Authorization');
}

function assertPreflight(r: Reply): void {
  assert.equal(r.status, 200);
  assert.equal(r.body, '{}');
  assertRpcHeaders(r);
  assert.equal(r.headers.get('www-authenticate'), null);
}

type Json = { readonly [k: string]: unknown };

/** The `result.Ok` payload of a JSON-RPC reply. */
function okPayload(body: string): Json {
  const reply = JSON.parse(body) as { result?: { Ok?: Json } };
  assert.ok(reply.result?.Ok !== undefined, `no result.Ok in ${body}`);
  return reply.result.Ok;
}

/** The same length as `secret`, differing in its last character. */
function otherSecret(secret: string): string {
  return secret.slice(0, -1) + (secret.endsWith('A') ? 'B' : 'A');
}

interface Surface {
  readonly name: string;
  readonly path: string;
  readonly method: 'GET' | 'POST';
  readonly body?: string;
  readonly checkOk: (body: string) => void;
}

const OWNER_SURFACES: readonly Surface[] = [
  {
    name: 'GET /v1/status',
    path: '/v1/status',
    method: 'GET',
    checkOk: (body) => assert.equal((JSON.parse(body) as Json).protocol_version, 2),
  },
  {
    name: 'GET /v1/ (route index)',
    path: '/v1/',
    method: 'GET',
    checkOk: (body) => assert.equal(body, ROUTE_INDEX_BODY),
  },
  {
    name: 'POST /v2/owner get_status',
    path: '/v2/owner',
    method: 'POST',
    body: '{"jsonrpc":"2.0","method":"get_status","params":[],"id":1}',
    checkOk: (body) => assert.equal(okPayload(body).protocol_version, 2),
  },
];

describe('owner credential (default config, real mwnode process)', () => {
  let node: NodeProcess;
  let home: string;
  let secret: string;

  before(async () => {
    node = await startNodeProcess();
    home = node.home;
    secret = ownerSecret(home);
  });
  after(async () => {
    await node?.stop();
    if (home !== undefined) removeHome(home);
  });

  it('logs that owner auth is on and foreign auth is off', () => {
    assert.match(node.stderr(), /"owner_auth":true,"foreign_auth":false/);
  });

  for (const s of OWNER_SURFACES) {
    const send = (auth: string | undefined): Promise<Reply> =>
      call(node, s.path, {
        method: s.method,
        ...(auth === undefined ? {} : { auth }),
        ...(s.body === undefined ? {} : { body: s.body }),
      });

    describe(s.name, () => {
      it('no Authorization header → 401', async () => {
        assertUnauthorized(await send(undefined), 'NodeAPI');
      });
      it('wrong user (epic:<secret>) → 401', async () => {
        assertUnauthorized(await send(basic(secret, 'epic')), 'NodeAPI');
      });
      it('wrong secret → 401', async () => {
        assertUnauthorized(await send(basic(otherSecret(secret))), 'NodeAPI');
      });
      it('scheme in lower case (basic …) → 401', async () => {
        const auth = basic(secret).replace(/^Basic /, 'basic ');
        assert.notEqual(auth, basic(secret));
        assertUnauthorized(await send(auth), 'NodeAPI');
      });
      it('two spaces after the scheme → 401', async () => {
        const auth = basic(secret).replace(/^Basic /, 'Basic  ');
        assertUnauthorized(await send(auth), 'NodeAPI');
      });
      it('the token without the scheme → 401', async () => {
        const bare = basic(secret).slice('Basic '.length);
        assertUnauthorized(await send(bare), 'NodeAPI');
      });
      it('correct credential → 200', async () => {
        const r = await send(basic(secret));
        assert.equal(r.status, 200);
        s.checkOk(r.body);
      });
    });
  }

  it('the credential is `Basic base64("node:" + secret)` exactly', async () => {
    const token = Buffer.from(`node:${secret}`, 'utf8').toString('base64');
    const r = await call(node, '/v1/status', { auth: `Basic ${token}` });
    assert.equal(r.status, 200);
  });

  it('/v2/owner success carries the JSON-RPC headers', async () => {
    const r = await call(node, '/v2/owner', {
      method: 'POST',
      auth: basic(secret),
      body: rpcBody('get_status'),
    });
    assert.equal(r.status, 200);
    assertRpcHeaders(r);
  });

  describe('open surfaces', () => {
    it('POST /v2/foreign get_tip without a credential → 200', async () => {
      const r = await call(node, '/v2/foreign', { method: 'POST', body: rpcBody('get_tip') });
      assert.equal(r.status, 200);
      assertRpcHeaders(r);
      const tip = okPayload(r.body);
      assert.equal(tip.height, 0);
    });
    it('POST /v2/foreign ignores an Authorization header it does not need', async () => {
      const r = await call(node, '/v2/foreign', {
        method: 'POST',
        auth: basic('nonsense', 'epic'),
        body: rpcBody('get_tip'),
      });
      assert.equal(r.status, 200);
      assert.equal(okPayload(r.body).height, 0);
    });
    it('POST /v2/tor without a credential → 200, -32601 for an unknown method', async () => {
      const r = await call(node, '/v2/tor', { method: 'POST', body: rpcBody('get_tip') });
      assert.equal(r.status, 200);
      assert.equal(r.body, METHOD_NOT_FOUND_ID_1);
      assertRpcHeaders(r);
    });
    for (const path of ['/', '/v2/']) {
      it(`GET ${path} without a credential → the 25-line route index`, async () => {
        const r = await call(node, path);
        assert.equal(r.status, 200);
        assert.equal(r.body, ROUTE_INDEX_BODY);
        assert.equal((JSON.parse(r.body) as string[]).length, 25);
      });
    }
  });

  describe('CORS preflight passes before the credential', () => {
    for (const path of ['/v1/status', '/v2/owner', '/v2/foreign']) {
      it(`OPTIONS ${path} without a credential → 200 {}`, async () => {
        assertPreflight(await call(node, path, { method: 'OPTIONS' }));
      });
    }
    it('OPTIONS /v2/owner with a wrong credential → 200 {}', async () => {
      assertPreflight(
        await call(node, '/v2/owner', { method: 'OPTIONS', auth: basic(otherSecret(secret)) }),
      );
    });
  });

  describe('404 before and after the credential', () => {
    it('unknown path /v3/x without a credential → 404, empty body', async () => {
      assertNotFound(await call(node, '/v3/x'));
    });
    it('unknown path /v3/x with a wrong credential → 404, empty body', async () => {
      assertNotFound(await call(node, '/v3/x', { auth: basic('nonsense') }));
    });
    it('GET /v1/chain/compact (known pattern, verb not served) with the credential → 404, empty body', async () => {
      assertNotFound(await call(node, '/v1/chain/compact', { auth: basic(secret) }));
    });
    it('GET /v1/chain/compact without a credential → 401 (auth before the verb)', async () => {
      assertUnauthorized(await call(node, '/v1/chain/compact'), 'NodeAPI');
    });
    it('GET /v2/owner (wrong verb) with the credential → 404; without → 401', async () => {
      assertNotFound(await call(node, '/v2/owner', { auth: basic(secret) }));
      assertUnauthorized(await call(node, '/v2/owner'), 'NodeAPI');
    });
    it('HEAD /v1/status with the credential → 404', async () => {
      assertNotFound(await call(node, '/v1/status', { method: 'HEAD', auth: basic(secret) }));
    });
    it('HEAD /v1/status without a credential → 401 with no body bytes on the wire', async () => {
      const wire = await rawExchange(
        node.port,
        'HEAD /v1/status HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
      );
      assert.match(wire, /^HTTP\/1\.1 401 /);
      assert.match(wire, /\r\nwww-authenticate: Basic realm=NodeAPI\r\n/i);
      const end = wire.indexOf('\r\n\r\n');
      assert.ok(end > 0, wire);
      assert.equal(wire.slice(end + 4), '');
    });
  });

  describe('the owner secret file', () => {
    it('holds exactly 20 alphanumerics, no newline, mode 0600', () => {
      const file = join(home, '.api_secret');
      const bytes = readFileSync(file);
      assert.equal(bytes.length, 20);
      assert.match(bytes.toString('latin1'), SECRET_RE);
      assert.equal(statSync(file).mode & 0o777, 0o600);
    });
  });

  describe('after the secret file is emptied and the node restarted in the same home', () => {
    let restarted: NodeProcess;
    let oldSecret: string;
    let newSecret: string;
    const file = (): string => join(home, '.api_secret');

    before(async () => {
      assert.equal(await node.stop(), 0);
      oldSecret = secret;
      truncateSync(file(), 0);
      assert.equal(statSync(file()).size, 0);
      restarted = await startNodeProcess({ home });
      newSecret = ownerSecret(home);
    });
    after(async () => {
      await restarted?.stop();
    });

    it('a new 20-character secret is written (no newline, mode 0600)', () => {
      const bytes = readFileSync(file());
      assert.equal(bytes.length, 20);
      assert.match(newSecret, SECRET_RE);
      assert.notEqual(newSecret, oldSecret);
      assert.equal(statSync(file()).mode & 0o777, 0o600);
      assert.match(restarted.stderr(), /"owner_auth":true/);
    });
    it('auth stays on: 401 without a header', async () => {
      assertUnauthorized(await call(restarted, '/v1/status'), 'NodeAPI');
      assertUnauthorized(
        await call(restarted, '/v2/owner', { method: 'POST', body: rpcBody('get_status') }),
        'NodeAPI',
      );
    });
    it('200 with the new secret', async () => {
      const r = await call(restarted, '/v1/status', { auth: basic(newSecret) });
      assert.equal(r.status, 200);
      assert.equal((JSON.parse(r.body) as Json).protocol_version, 2);
    });
    it('the old secret is refused', async () => {
      assertUnauthorized(
        await call(restarted, '/v1/status', { auth: basic(oldSecret) }),
        'NodeAPI',
      );
    });
  });
});

describe('foreign credential (foreign_api_secret_path set)', () => {
  let node: NodeProcess;
  let home: string;
  let secret: string;

  before(async () => {
    home = tempHome();
    const file = join(home, '.foreign_api_secret');
    writeFileSync(file, FOREIGN_SECRET, { mode: 0o600 });
    node = await startNodeProcess({ home, serverLines: [`foreign_api_secret_path = "${file}"`] });
    secret = ownerSecret(home);
  });
  after(async () => {
    await node?.stop();
    if (home !== undefined) removeHome(home);
  });

  it('the header helper agrees with the reference vector', () => {
    assert.equal(basic(FOREIGN_SECRET), FOREIGN_AUTH);
  });
  it('logs that both credentials are on', () => {
    assert.match(node.stderr(), /"owner_auth":true,"foreign_auth":true/);
  });
  it('POST /v2/foreign without a credential → 401, realm NodeForeignAPI', async () => {
    const r = await call(node, '/v2/foreign', { method: 'POST', body: rpcBody('get_tip') });
    assertUnauthorized(r, 'NodeForeignAPI');
  });
  it('POST /v2/foreign with the foreign credential → 200', async () => {
    const r = await call(node, '/v2/foreign', {
      method: 'POST',
      auth: FOREIGN_AUTH,
      body: rpcBody('get_tip'),
    });
    assert.equal(r.status, 200);
    assertRpcHeaders(r);
    assert.equal(okPayload(r.body).height, 0);
  });
  it('POST /v2/foreign with the owner credential → 401', async () => {
    const r = await call(node, '/v2/foreign', {
      method: 'POST',
      auth: basic(secret),
      body: rpcBody('get_tip'),
    });
    assertUnauthorized(r, 'NodeForeignAPI');
  });
  it('POST /v2/foreign with user epic → 401', async () => {
    const r = await call(node, '/v2/foreign', {
      method: 'POST',
      auth: basic(FOREIGN_SECRET, 'epic'),
      body: rpcBody('get_tip'),
    });
    assertUnauthorized(r, 'NodeForeignAPI');
  });
  it('the foreign credential does not open /v2/owner or /v1', async () => {
    const owner = await call(node, '/v2/owner', {
      method: 'POST',
      auth: FOREIGN_AUTH,
      body: rpcBody('get_status'),
    });
    assertUnauthorized(owner, 'NodeAPI');
    assertUnauthorized(await call(node, '/v1/status', { auth: FOREIGN_AUTH }), 'NodeAPI');
  });
  it('the owner credential still opens /v2/owner', async () => {
    const r = await call(node, '/v2/owner', {
      method: 'POST',
      auth: basic(secret),
      body: rpcBody('get_status'),
    });
    assert.equal(r.status, 200);
    assert.equal(okPayload(r.body).protocol_version, 2);
  });
  it('POST /v2/tor stays open', async () => {
    const r = await call(node, '/v2/tor', { method: 'POST', body: rpcBody('get_tip') });
    assert.equal(r.status, 200);
    assert.equal(r.body, METHOD_NOT_FOUND_ID_1);
  });
  it('OPTIONS /v2/foreign without a credential → 200 {}', async () => {
    assertPreflight(await call(node, '/v2/foreign', { method: 'OPTIONS' }));
  });
});

describe('foreign secret file unusable → the node refuses to start', () => {
  let home: string;
  before(() => {
    home = tempHome();
  });
  after(() => {
    if (home !== undefined) removeHome(home);
  });

  const refused = async (file: string, reason: string): Promise<void> => {
    const { code, stderr } = await expectStartFailure({
      home,
      serverLines: [`foreign_api_secret_path = "${file}"`],
    });
    assert.notEqual(code, 0);
    assert.notEqual(code, null);
    assert.ok(!stderr.includes(LISTENING), stderr);
    const line = stderr.split('\n').find((l) => l.includes(file));
    assert.ok(line !== undefined, `stderr does not name ${file}:\n${stderr}`);
    assert.ok(line.includes(reason), `"${reason}" not in: ${line}`);
  };

  it('file missing', async () => {
    await refused(join(home, 'no-such-foreign-secret'), 'file does not exist');
  });
  it('file empty', async () => {
    const file = join(home, 'empty-foreign-secret');
    writeFileSync(file, '');
    await refused(file, 'file is empty');
  });
});

describe('no api_secret_path in the config → owner surfaces open', () => {
  let node: NodeProcess;

  before(async () => {
    node = await startNodeProcess({ ownerSecret: false });
    assert.ok(!readFileSync(node.configFile, 'utf8').includes('api_secret_path'));
  });
  after(async () => {
    await node?.stop();
    if (node !== undefined) removeHome(node.home);
  });

  it('logs that owner auth is off', () => {
    assert.match(node.stderr(), /"owner_auth":false/);
  });
  it('GET /v1/status without a credential → 200', async () => {
    const r = await call(node, '/v1/status');
    assert.equal(r.status, 200);
    assert.equal((JSON.parse(r.body) as Json).protocol_version, 2);
  });
  it('POST /v2/owner get_status without a credential → 200', async () => {
    const r = await call(node, '/v2/owner', { method: 'POST', body: rpcBody('get_status') });
    assert.equal(r.status, 200);
    assert.equal(okPayload(r.body).protocol_version, 2);
  });
  it('GET /v1/ without a credential → the route index', async () => {
    const r = await call(node, '/v1/');
    assert.equal(r.status, 200);
    assert.equal(r.body, ROUTE_INDEX_BODY);
  });
  it('an Authorization header is ignored', async () => {
    const r = await call(node, '/v1/status', { auth: basic('whatever') });
    assert.equal(r.status, 200);
  });
});
