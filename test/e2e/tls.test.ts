// TLS on the real node process (spec §5.6, §7; node reference §10, §14): HTTPS with keys in
// PKCS#8, PKCS#1 and SEC1, verified by a client that trusts only the self-signed certificate;
// no plain HTTP on a TLS port; and every bad pair stops the start before anything listens.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { request } from 'node:https';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { TLSSocket } from 'node:tls';
import { makeTestCerts, removeCerts, type TestCerts } from '../support/certs.js';
import {
  basic,
  expectStartFailure,
  type NodeProcess,
  ownerSecret,
  removeHome,
  startNodeProcess,
  type TestChain,
  tempHome,
} from '../support/node_process.js';

const LISTENING = '"event":"listening"';

interface TlsReply {
  readonly status: number;
  readonly body: string;
  /** SHA-256 fingerprint of the certificate the server presented. */
  readonly peerFingerprint: string;
}

interface TlsCall {
  readonly ca?: string;
  readonly auth?: string;
  readonly method?: string;
  readonly body?: string;
}

/** One HTTPS request on a fresh connection (no agent), verifying the server against `ca`. */
function httpsCall(port: number, path: string, c: TlsCall = {}): Promise<TlsReply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (c.auth !== undefined) headers.authorization = c.auth;
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: c.method ?? 'GET',
        headers,
        agent: false,
        ...(c.ca === undefined ? {} : { ca: c.ca }),
      },
      (res) => {
        const peerFingerprint = (res.socket as TLSSocket).getPeerCertificate().fingerprint256;
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, peerFingerprint }));
        res.on('error', reject);
      },
    );
    req.setTimeout(5_000, () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(c.body);
  });
}

const fingerprintOf = (pem: string): string => new X509Certificate(pem).fingerprint256;

const tlsLines = (cert: string | null, key: string | null): string[] => [
  ...(cert === null ? [] : [`tls_certificate_file = "${cert}"`]),
  ...(key === null ? [] : [`tls_certificate_key = "${key}"`]),
];

let certs: TestCerts;

before(() => {
  certs = makeTestCerts();
});
after(() => {
  if (certs !== undefined) removeCerts(certs);
});

/** Starts a TLS node for a describe block; the getter is valid inside its tests. */
function tlsNode(
  pair: () => { cert: string; key: string },
  chain: TestChain = 'automated',
): () => NodeProcess {
  let node: NodeProcess | undefined;
  before(async () => {
    const { cert, key } = pair();
    node = await startNodeProcess({ chain, serverLines: tlsLines(cert, key) });
  });
  after(async () => {
    if (node === undefined) return;
    await node.stop();
    removeHome(node.home);
  });
  return () => {
    assert.ok(node !== undefined, 'node not started');
    return node;
  };
}

async function assertStatusOverTls(node: NodeProcess, caPem: string): Promise<void> {
  const r = await httpsCall(node.port, '/v1/status', {
    ca: caPem,
    auth: basic(ownerSecret(node.home)),
  });
  assert.equal(r.status, 200);
  assert.equal((JSON.parse(r.body) as { protocol_version?: unknown }).protocol_version, 2);
  assert.equal(r.peerFingerprint, fingerprintOf(caPem));
}

describe('HTTPS with an RSA certificate and a PKCS#8 key', () => {
  const node = tlsNode(() => ({ cert: certs.rsaCert, key: certs.rsaKeyPkcs8 }));

  it('logs "tls":true and listens on https', () => {
    assert.match(node().stderr(), /"event":"listening","addr":"127\.0\.0\.1:\d+","tls":true/);
    assert.ok(node().url.startsWith('https://'));
  });
  it('GET /v1/status with the owner credential → 200, certificate verified', async () => {
    await assertStatusOverTls(node(), certs.rsaCertPem);
  });
  it('the credential is still required over TLS', async () => {
    const r = await httpsCall(node().port, '/v1/status', { ca: certs.rsaCertPem });
    assert.equal(r.status, 401);
  });
  it('POST /v2/owner over TLS → 200', async () => {
    const r = await httpsCall(node().port, '/v2/owner', {
      ca: certs.rsaCertPem,
      auth: basic(ownerSecret(node().home)),
      method: 'POST',
      body: '{"jsonrpc":"2.0","method":"get_status","params":[],"id":1}',
    });
    assert.equal(r.status, 200);
    const reply = JSON.parse(r.body) as { result?: { Ok?: { protocol_version?: unknown } } };
    assert.equal(reply.result?.Ok?.protocol_version, 2);
  });
  it('a client that does not trust the self-signed certificate is refused', async () => {
    await assert.rejects(httpsCall(node().port, '/v1/status'), (e: NodeJS.ErrnoException) => {
      assert.equal(e.code, 'DEPTH_ZERO_SELF_SIGNED_CERT');
      return true;
    });
  });
  it('a client trusting another certificate is refused', async () => {
    await assert.rejects(httpsCall(node().port, '/v1/status', { ca: certs.ecCertPem }), {
      code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
    });
  });
  it('plain HTTP to the same port fails', async () => {
    const url = `http://127.0.0.1:${node().port}/v1/status`;
    const auth = basic(ownerSecret(node().home));
    await assert.rejects(
      fetch(url, { headers: { authorization: auth }, signal: AbortSignal.timeout(5_000) }),
      (e: Error) => {
        // fetch's own failure (the connection is closed), not our timeout.
        assert.equal(e.name, 'TypeError');
        return true;
      },
    );
  });
});

describe('HTTPS with a PKCS#1 (RSA PRIVATE KEY) key', () => {
  const node = tlsNode(() => ({ cert: certs.rsaCert, key: certs.rsaKeyPkcs1 }));
  it('GET /v1/status over TLS → 200, certificate verified', async () => {
    assert.match(node().stderr(), /"tls":true/);
    await assertStatusOverTls(node(), certs.rsaCertPem);
  });
});

describe('HTTPS with an EC P-256 certificate and a SEC1 (EC PRIVATE KEY) key', () => {
  const node = tlsNode(() => ({ cert: certs.ecCert, key: certs.ecKeySec1 }));
  it('GET /v1/status over TLS → 200, certificate verified', async () => {
    assert.match(node().stderr(), /"tls":true/);
    await assertStatusOverTls(node(), certs.ecCertPem);
  });
});

describe('HTTPS on mainnet, like the other chain types', () => {
  const node = tlsNode(() => ({ cert: certs.rsaCert, key: certs.rsaKeyPkcs8 }), 'mainnet');
  it('GET /v1/status over TLS → 200 on the mainnet genesis, certificate verified', async () => {
    assert.match(node().stderr(), /"tls":true,"chain":"mainnet"/);
    await assertStatusOverTls(node(), certs.rsaCertPem);
    const r = await httpsCall(node().port, '/v1/chain', {
      ca: certs.rsaCertPem,
      auth: basic(ownerSecret(node().home)),
    });
    assert.equal(r.status, 200);
    assert.equal(
      (JSON.parse(r.body) as { last_block_pushed?: unknown }).last_block_pushed,
      '454018a56d86e37611bdcabc7de670305c3f3dc9675e314b437f1adc29430851',
    );
  });
});

describe('a key without a certificate', () => {
  let node: NodeProcess | undefined;
  before(async () => {
    node = await startNodeProcess({ serverLines: tlsLines(null, certs.rsaKeyPkcs8) });
  });
  after(async () => {
    if (node === undefined) return;
    await node.stop();
    removeHome(node.home);
  });
  it('is ignored with a warning: plain HTTP', async () => {
    assert.ok(node !== undefined);
    assert.match(node.stderr(), /"tls":false/);
    assert.match(node.stderr(), /^warning: .*tls_certificate_key/m);
    const r = await fetch(`${node.url}/v1/status`, {
      headers: { authorization: basic(ownerSecret(node.home)) },
    });
    assert.ok(node.url.startsWith('http://'));
    assert.equal(r.status, 200);
  });
});

describe('a bad TLS pair stops the start, nothing listens', () => {
  let home: string;
  before(() => {
    home = tempHome();
  });
  after(() => {
    if (home !== undefined) removeHome(home);
  });

  /** Starts with the pair; expects a refusal whose message names `file` and `reason`. */
  async function refused(
    cert: string | null,
    key: string | null,
    file: string,
    reason: string,
  ): Promise<void> {
    const { code, stderr } = await expectStartFailure({ home, serverLines: tlsLines(cert, key) });
    assert.notEqual(code, null);
    assert.notEqual(code, 0);
    assert.ok(!stderr.includes(LISTENING), stderr);
    const line = stderr.split('\n').find((l) => l.startsWith('mwnode: ') && l.includes(file));
    assert.ok(line !== undefined, `no "mwnode: …" line names ${file}:\n${stderr}`);
    assert.ok(line.includes(reason), `"${reason}" not in: ${line}`);
  }

  it('certificate without a key', async () => {
    await refused(certs.rsaCert, null, certs.rsaCert, 'Private key for certificate is not set');
  });
  it('garbage certificate file (no PEM block)', async () => {
    await refused(
      certs.garbageCert,
      certs.rsaKeyPkcs8,
      certs.garbageCert,
      'no PEM CERTIFICATE block found',
    );
  });
  it('PEM CERTIFICATE block that is not a certificate', async () => {
    await refused(certs.bogusPemCert, certs.rsaKeyPkcs8, certs.bogusPemCert, 'cannot be parsed');
  });
  it('key of another certificate (RSA)', async () => {
    await refused(certs.rsaCert, certs.otherKey, certs.otherKey, 'does not match the certificate');
  });
  it('key of another type (RSA key, EC certificate)', async () => {
    await refused(
      certs.ecCert,
      certs.rsaKeyPkcs8,
      certs.rsaKeyPkcs8,
      'does not match the certificate',
    );
  });
  it('encrypted PKCS#8 key', async () => {
    await refused(
      certs.rsaCert,
      certs.rsaKeyEncrypted,
      certs.rsaKeyEncrypted,
      'encrypted private keys are not supported',
    );
  });
  describe('RSA-PSS certificate and key (parse and match, but TLS cannot use them)', () => {
    let exit: { code: number | null; stderr: string } | undefined;
    before(async () => {
      exit = await expectStartFailure({
        home,
        serverLines: tlsLines(certs.pssCert, certs.pssKey),
      });
    });
    it('exits non-zero without listening', () => {
      assert.ok(exit !== undefined);
      assert.notEqual(exit.code, null);
      assert.notEqual(exit.code, 0);
      assert.ok(!exit.stderr.includes(LISTENING), exit.stderr);
    });
    it('says so in one "mwnode: …" line naming the key file', () => {
      assert.ok(exit !== undefined);
      const line = exit.stderr.split('\n').find((l) => l.startsWith('mwnode: TLS '));
      assert.ok(line?.includes(certs.pssKey), exit.stderr);
      assert.ok(!exit.stderr.includes('    at '), 'a stack trace was printed');
    });
  });
  it('certificate file missing', async () => {
    const missing = join(certs.dir, 'missing-cert.pem');
    await refused(missing, certs.rsaKeyPkcs8, missing, 'file does not exist');
  });
  it('key file missing', async () => {
    const missing = join(certs.dir, 'missing-key.pem');
    await refused(certs.rsaCert, missing, missing, 'file does not exist');
  });
});
