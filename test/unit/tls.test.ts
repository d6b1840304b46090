// TLS pair checks (spec §5.6, node-api §10) against keys and certificates made by openssl.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createSecureContext } from 'node:tls';
import { loadTls, TlsConfigError, type TlsFileRole } from '../../gateway/tls.js';

const dir = mkdtempSync(join(tmpdir(), 'mwnode-tls-'));
const f = (name: string): string => join(dir, name);
const openssl = (...args: string[]): void => {
  execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
};
after(() => rmSync(dir, { recursive: true, force: true }));

before(() => {
  const subj = ['-subj', '/CN=localhost', '-days', '1'];
  // RSA: PKCS#8 key with its certificate, the same key as PKCS#1, and both encrypted.
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    f('pkcs8.pem'),
    '-out',
    f('rsa_cert.pem'),
    ...subj,
  );
  openssl('rsa', '-in', f('pkcs8.pem'), '-traditional', '-out', f('pkcs1.pem'));
  openssl(
    'pkcs8',
    '-topk8',
    '-v2',
    'aes256',
    '-in',
    f('pkcs8.pem'),
    '-out',
    f('enc8.pem'),
    '-passout',
    'pass:x',
  );
  openssl(
    'rsa',
    '-in',
    f('pkcs8.pem'),
    '-traditional',
    '-aes256',
    '-passout',
    'pass:x',
    '-out',
    f('enc1.pem'),
  );
  // SEC1: `ecparam -genkey` writes an EC PARAMETERS block first, which must be skipped.
  openssl('ecparam', '-name', 'prime256v1', '-genkey', '-out', f('sec1.pem'));
  openssl('req', '-x509', '-new', '-key', f('sec1.pem'), '-out', f('ec_cert.pem'), ...subj);
  openssl(
    'genpkey',
    '-algorithm',
    'RSA',
    '-pkeyopt',
    'rsa_keygen_bits:2048',
    '-out',
    f('other_rsa.pem'),
  );
  writeFileSync(
    f('chain.pem'),
    readFileSync(f('rsa_cert.pem'), 'utf8') + readFileSync(f('ec_cert.pem'), 'utf8'),
  );
  writeFileSync(f('garbage.pem'), 'hello, this is not a certificate\n');
  writeFileSync(
    f('bad_block.pem'),
    '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n',
  );
  writeFileSync(f('bad_key.pem'), '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n');
  writeFileSync(f('cut.pem'), '-----BEGIN CERTIFICATE-----\nAAAA\n');
});

const pair = (cert: string | null, key: string | null) => ({
  tlsCertificateFile: cert === null ? null : f(cert),
  tlsCertificateKey: key === null ? null : f(key),
});

function tlsError(cert: string | null, key: string | null): TlsConfigError {
  try {
    loadTls(pair(cert, key), () => {});
  } catch (err) {
    assert.ok(err instanceof TlsConfigError, String(err));
    return err;
  }
  assert.fail('accepted');
}

function assertRejects(
  cert: string,
  key: string | null,
  role: TlsFileRole,
  file: string,
  reason: string,
) {
  const err = tlsError(cert, key);
  assert.deepEqual([err.role, err.file, err.reason], [role, f(file), reason]);
  assert.equal(err.message, `TLS ${role} ${f(file)}: ${reason}`);
}

describe('loadTls accepts', () => {
  for (const [key, cert, label] of [
    ['pkcs1.pem', 'rsa_cert.pem', 'RSA PRIVATE KEY'],
    ['pkcs8.pem', 'rsa_cert.pem', 'PRIVATE KEY'],
    ['sec1.pem', 'ec_cert.pem', 'EC PRIVATE KEY'],
  ] as const) {
    it(`${label} keys`, () => {
      const tls = loadTls(pair(cert, key), () => assert.fail('warned'));
      assert.ok(tls !== null);
      assert.equal(tls.certFile, f(cert));
      assert.equal(tls.keyFile, f(key));
      assert.ok(tls.keyPem.startsWith(`-----BEGIN ${label}-----\n`));
      assert.ok(tls.keyPem.endsWith(`-----END ${label}-----\n`));
      assert.equal(tls.certPem.match(/-----BEGIN CERTIFICATE-----/g)?.length, 1);
      // The material is what a TLS server needs.
      createSecureContext({ cert: tls.certPem, key: tls.keyPem });
    });
  }

  it('a chain, checking the key against the leaf', () => {
    const tls = loadTls(pair('chain.pem', 'pkcs8.pem'));
    assert.equal(tls?.certPem.match(/-----BEGIN CERTIFICATE-----/g)?.length, 2);
  });

  it('no certificate: plain HTTP; a key alone is ignored with a warning', () => {
    assert.equal(
      loadTls(pair(null, null), () => assert.fail('warned')),
      null,
    );
    const warnings: string[] = [];
    assert.equal(
      loadTls(pair(null, 'pkcs8.pem'), (w) => warnings.push(w)),
      null,
    );
    assert.deepEqual(warnings, [
      'tls_certificate_key is set but tls_certificate_file is not: serving plain HTTP',
    ]);
  });
});

describe('loadTls rejects', () => {
  it('a certificate without a key', () => {
    assertRejects(
      'rsa_cert.pem',
      null,
      'certificate',
      'rsa_cert.pem',
      'Private key for certificate is not set',
    );
  });

  it('missing files', () => {
    assertRejects(
      'nope.pem',
      'pkcs8.pem',
      'certificate',
      'nope.pem',
      'cannot be read: file does not exist',
    );
    assertRejects(
      'rsa_cert.pem',
      'nope.pem',
      'private key',
      'nope.pem',
      'cannot be read: file does not exist',
    );
  });

  it('a certificate file that is not a certificate', () => {
    assertRejects(
      'garbage.pem',
      'pkcs8.pem',
      'certificate',
      'garbage.pem',
      'no PEM CERTIFICATE block found',
    );
    assertRejects(
      'pkcs8.pem',
      'pkcs8.pem',
      'certificate',
      'pkcs8.pem',
      'no PEM CERTIFICATE block found',
    );
    assertRejects(
      'bad_block.pem',
      'pkcs8.pem',
      'certificate',
      'bad_block.pem',
      'certificate 1 cannot be parsed',
    );
    assertRejects(
      'cut.pem',
      'pkcs8.pem',
      'certificate',
      'cut.pem',
      'PEM block "CERTIFICATE" has no END line',
    );
  });

  it('a key file without a key', () => {
    assertRejects(
      'rsa_cert.pem',
      'garbage.pem',
      'private key',
      'garbage.pem',
      'no PEM private key found (expected RSA PRIVATE KEY, PRIVATE KEY or EC PRIVATE KEY)',
    );
  });

  it('a key block that does not parse', () => {
    assertRejects(
      'rsa_cert.pem',
      'bad_key.pem',
      'private key',
      'bad_key.pem',
      'private key cannot be parsed',
    );
  });

  it('encrypted keys, PKCS#8 and PKCS#1', () => {
    const reason = 'encrypted private keys are not supported';
    assertRejects('rsa_cert.pem', 'enc8.pem', 'private key', 'enc8.pem', reason);
    assertRejects('rsa_cert.pem', 'enc1.pem', 'private key', 'enc1.pem', reason);
  });

  it('a key that does not belong to the certificate', () => {
    const reason = 'does not match the certificate';
    assertRejects('rsa_cert.pem', 'other_rsa.pem', 'private key', 'other_rsa.pem', reason);
    assertRejects('rsa_cert.pem', 'sec1.pem', 'private key', 'sec1.pem', reason);
    assertRejects('ec_cert.pem', 'pkcs8.pem', 'private key', 'pkcs8.pem', reason);
  });
});
