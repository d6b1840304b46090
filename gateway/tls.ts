// Checks the TLS pair before the listener starts (spec §5.6): a certificate without its key,
// a file that cannot be read or parsed, an encrypted key or a key that does not belong to the
// certificate stops the node, where Epic would panic inside its API thread and run on without
// an API. There is never a fallback to plain HTTP once a certificate is configured.
import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { describeFsError, readBounded } from '../config/files.js';
import type { ServerConfig, TlsMaterial } from '../config/types.js';

/** PEM files are small; the cap only guards against a wrong path. */
const TLS_FILE_LIMIT = 1024 * 1024;

export type TlsFileRole = 'certificate' | 'private key';

export class TlsConfigError extends Error {
  readonly file: string;
  readonly role: TlsFileRole;
  readonly reason: string;

  constructor(role: TlsFileRole, file: string, reason: string, cause?: unknown) {
    super(`TLS ${role} ${file}: ${reason}`, cause === undefined ? undefined : { cause });
    this.name = 'TlsConfigError';
    this.file = file;
    this.role = role;
    this.reason = reason;
  }
}

interface PemBlock {
  readonly label: string;
  /** RFC 1421 headers such as `Proc-Type: 4,ENCRYPTED`, one per line. */
  readonly headers: readonly string[];
  readonly der: Buffer;
}

const BEGIN_RE = /^-----BEGIN ([A-Z0-9 ]+)-----$/;
const BASE64_RE = /^[A-Za-z0-9+/]*={0,2}$/;

/** Splits a block body into its headers (before the first blank line) and its base64 text. */
function splitBody(lines: readonly string[]): { headers: string[]; base64: string } {
  const hasHeaders = lines.length > 0 && lines[0]?.includes(':') === true;
  const blank = hasHeaders ? lines.indexOf('') : -1;
  const headers = blank < 0 ? [] : lines.slice(0, blank);
  return { headers, base64: lines.slice(blank + 1).join('') };
}

/**
 * Every PEM block of a file, in order; text between blocks is skipped. Returns a string
 * describing the problem when a block is malformed.
 */
function scanPem(text: string): PemBlock[] | string {
  const lines = text.split('\n').map((l) => l.trim());
  const blocks: PemBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const label = BEGIN_RE.exec(lines[i] ?? '')?.[1];
    if (label === undefined) continue;
    const end = lines.indexOf(`-----END ${label}-----`, i + 1);
    if (end < 0) return `PEM block "${label}" has no END line`;
    const body = lines.slice(i + 1, end);
    if (body.some((l) => l.startsWith('-----'))) return `PEM block "${label}" is cut short`;
    const { headers, base64 } = splitBody(body);
    if (base64 === '' || !BASE64_RE.test(base64)) return `PEM block "${label}" is not valid base64`;
    blocks.push({ label, headers, der: Buffer.from(base64, 'base64') });
    i = end;
  }
  return blocks;
}

function toPem(block: PemBlock): string {
  const b64 = block.der.toString('base64');
  const rows = b64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${block.label}-----\n${rows.join('\n')}\n-----END ${block.label}-----\n`;
}

function readPemFile(role: TlsFileRole, file: string): PemBlock[] {
  let text: string;
  try {
    // latin1 never fails to decode, so a binary (DER) file reads as "no PEM block found".
    text = readBounded(file, TLS_FILE_LIMIT).toString('latin1');
  } catch (err) {
    throw new TlsConfigError(
      role,
      file,
      `cannot be read: ${describeFsError(err, TLS_FILE_LIMIT)}`,
      err,
    );
  }
  const blocks = scanPem(text);
  if (typeof blocks === 'string') throw new TlsConfigError(role, file, blocks);
  return blocks;
}

function loadCertificates(file: string): { blocks: PemBlock[]; leaf: X509Certificate } {
  const blocks = readPemFile('certificate', file).filter((b) => b.label === 'CERTIFICATE');
  if (blocks.length === 0)
    throw new TlsConfigError('certificate', file, 'no PEM CERTIFICATE block found');
  const parsed = blocks.map((b, i) => {
    try {
      return new X509Certificate(b.der);
    } catch (err) {
      throw new TlsConfigError('certificate', file, `certificate ${i + 1} cannot be parsed`, err);
    }
  });
  return { blocks, leaf: parsed[0] as X509Certificate };
}

const KEY_TYPES: Readonly<Record<string, 'pkcs1' | 'pkcs8' | 'sec1'>> = {
  'RSA PRIVATE KEY': 'pkcs1',
  'PRIVATE KEY': 'pkcs8',
  'EC PRIVATE KEY': 'sec1',
};

const isEncrypted = (b: PemBlock): boolean =>
  b.label === 'ENCRYPTED PRIVATE KEY' || b.headers.some((h) => /^Proc-Type:.*ENCRYPTED/i.test(h));

/** The first unencrypted PKCS#1, PKCS#8 or SEC1 block, as Epic's key loader picks it. */
function pickKeyBlock(file: string, blocks: readonly PemBlock[]): PemBlock {
  const first = blocks.find((b) => Object.hasOwn(KEY_TYPES, b.label));
  if (first !== undefined && !isEncrypted(first)) return first;
  if (first === undefined && !blocks.some(isEncrypted)) {
    throw new TlsConfigError(
      'private key',
      file,
      'no PEM private key found (expected RSA PRIVATE KEY, PRIVATE KEY or EC PRIVATE KEY)',
    );
  }
  throw new TlsConfigError('private key', file, 'encrypted private keys are not supported');
}

function loadKey(file: string): { block: PemBlock; key: KeyObject } {
  const block = pickKeyBlock(file, readPemFile('private key', file));
  try {
    const key = createPrivateKey({ key: block.der, format: 'der', type: KEY_TYPES[block.label] });
    checkKeyType(file, key);
    return { block, key };
  } catch (err) {
    if (err instanceof TlsConfigError) throw err;
    throw new TlsConfigError('private key', file, 'private key cannot be parsed', err);
  }
}

/** Key types the listener's TLS stack can serve with (RSA-PSS and DSA parse but cannot). */
const SERVABLE_KEY_TYPES = new Set(['rsa', 'ec', 'ed25519', 'ed448']);

function checkKeyType(file: string, key: KeyObject): void {
  const type = key.asymmetricKeyType ?? 'unknown';
  if (!SERVABLE_KEY_TYPES.has(type)) {
    throw new TlsConfigError(
      'private key',
      file,
      `unsupported key type ${type} (use RSA, EC or Ed25519)`,
    );
  }
}

function warnOnStderr(message: string): void {
  process.stderr.write(`warning: ${message}\n`);
}

/**
 * The checked certificate chain and key, or null when no certificate is configured (plain
 * HTTP). A key without a certificate is ignored as in Epic, with a warning, since an operator
 * who set only the key most likely expects HTTPS. Throws TlsConfigError.
 */
export function loadTls(
  config: Pick<ServerConfig, 'tlsCertificateFile' | 'tlsCertificateKey'>,
  warn: (message: string) => void = warnOnStderr,
): TlsMaterial | null {
  const certFile = config.tlsCertificateFile;
  const keyFile = config.tlsCertificateKey;
  if (certFile === null) {
    if (keyFile !== null) {
      warn(`tls_certificate_key is set but tls_certificate_file is not: serving plain HTTP`);
    }
    return null;
  }
  if (keyFile === null) {
    throw new TlsConfigError('certificate', certFile, 'Private key for certificate is not set');
  }
  const certs = loadCertificates(certFile);
  const key = loadKey(keyFile);
  if (!certs.leaf.checkPrivateKey(key.key)) {
    throw new TlsConfigError('private key', keyFile, 'does not match the certificate');
  }
  return {
    certPem: certs.blocks.map(toPem).join(''),
    keyPem: toPem(key.block),
    certFile,
    keyFile,
  };
}
