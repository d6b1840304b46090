// TLS material for end-to-end tests, made with the `openssl` command line in a temporary
// directory: self-signed certificates for 127.0.0.1/localhost and their keys in every PEM form
// the node accepts or must refuse.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCerts {
  readonly dir: string;
  /** Self-signed RSA certificate (also the CA a client trusts). */
  readonly rsaCert: string;
  /** Its key as `PRIVATE KEY` (PKCS#8, unencrypted). */
  readonly rsaKeyPkcs8: string;
  /** The same key as `RSA PRIVATE KEY` (PKCS#1). */
  readonly rsaKeyPkcs1: string;
  /** The same key as `ENCRYPTED PRIVATE KEY` (PKCS#8 with a passphrase). */
  readonly rsaKeyEncrypted: string;
  /** Self-signed EC P-256 certificate. */
  readonly ecCert: string;
  /** Its key as `EC PRIVATE KEY` (SEC1). */
  readonly ecKeySec1: string;
  /** Self-signed RSA-PSS certificate and its key (`PRIVATE KEY`): valid, but not for TLS here. */
  readonly pssCert: string;
  readonly pssKey: string;
  /** An RSA key that belongs to no certificate here. */
  readonly otherKey: string;
  /** A file with no PEM block at all. */
  readonly garbageCert: string;
  /** A well-formed PEM `CERTIFICATE` block whose bytes are not a certificate. */
  readonly bogusPemCert: string;
  /** PEM text of `rsaCert` / `ecCert`, for a client's `ca`. */
  readonly rsaCertPem: string;
  readonly ecCertPem: string;
}

const SUBJECT = ['-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'];

function openssl(args: readonly string[]): void {
  execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

function pemLabels(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/^-----BEGIN ([A-Z0-9 ]+)-----$/gm)].map(
    (m) => m[1] as string,
  );
}

/** Checks that openssl wrote what the tests rely on (its defaults differ between versions). */
function expectLabel(file: string, label: string): void {
  const labels = pemLabels(file);
  if (labels.length !== 1 || labels[0] !== label)
    throw new Error(`${file}: expected one PEM block "${label}", found ${labels.join(', ')}`);
}

export function makeTestCerts(): TestCerts {
  const dir = mkdtempSync(join(tmpdir(), 'mwnode-certs-'));
  const p = (name: string): string => join(dir, name);
  const c: TestCerts = {
    dir,
    rsaCert: p('rsa-cert.pem'),
    rsaKeyPkcs8: p('rsa-key-pkcs8.pem'),
    rsaKeyPkcs1: p('rsa-key-pkcs1.pem'),
    rsaKeyEncrypted: p('rsa-key-encrypted.pem'),
    ecCert: p('ec-cert.pem'),
    ecKeySec1: p('ec-key-sec1.pem'),
    pssCert: p('pss-cert.pem'),
    pssKey: p('pss-key.pem'),
    otherKey: p('other-key.pem'),
    garbageCert: p('garbage-cert.pem'),
    bogusPemCert: p('bogus-pem-cert.pem'),
    rsaCertPem: '',
    ecCertPem: '',
  };

  openssl([
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    c.rsaKeyPkcs8,
    '-out',
    c.rsaCert,
    '-days',
    '2',
    ...SUBJECT,
  ]);
  openssl(['rsa', '-in', c.rsaKeyPkcs8, '-traditional', '-out', c.rsaKeyPkcs1]);
  openssl([
    'pkcs8',
    '-topk8',
    '-in',
    c.rsaKeyPkcs8,
    '-v2',
    'aes-256-cbc',
    '-passout',
    'pass:correct horse',
    '-out',
    c.rsaKeyEncrypted,
  ]);
  openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', c.ecKeySec1]);
  openssl(['req', '-x509', '-key', c.ecKeySec1, '-out', c.ecCert, '-days', '2', ...SUBJECT]);
  openssl([
    'req',
    '-x509',
    '-newkey',
    'rsa-pss',
    '-pkeyopt',
    'rsa_keygen_bits:2048',
    '-nodes',
    '-keyout',
    c.pssKey,
    '-out',
    c.pssCert,
    '-days',
    '2',
    ...SUBJECT,
  ]);
  openssl(['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', c.otherKey]);
  writeFileSync(c.garbageCert, 'this is not a certificate\n');
  const noise = Buffer.alloc(300, 0xa5).toString('base64');
  writeFileSync(
    c.bogusPemCert,
    `-----BEGIN CERTIFICATE-----\n${noise.match(/.{1,64}/g)?.join('\n')}\n-----END CERTIFICATE-----\n`,
  );

  expectLabel(c.rsaCert, 'CERTIFICATE');
  expectLabel(c.rsaKeyPkcs8, 'PRIVATE KEY');
  expectLabel(c.rsaKeyPkcs1, 'RSA PRIVATE KEY');
  expectLabel(c.rsaKeyEncrypted, 'ENCRYPTED PRIVATE KEY');
  expectLabel(c.ecCert, 'CERTIFICATE');
  expectLabel(c.ecKeySec1, 'EC PRIVATE KEY');
  expectLabel(c.pssKey, 'PRIVATE KEY');
  expectLabel(c.otherKey, 'PRIVATE KEY');

  return {
    ...c,
    rsaCertPem: readFileSync(c.rsaCert, 'utf8'),
    ecCertPem: readFileSync(c.ecCert, 'utf8'),
  };
}

export function removeCerts(certs: TestCerts): void {
  rmSync(certs.dir, { recursive: true, force: true });
}
