// `mwnode client`: talks to a running node over its HTTP API, like Epic's bundled client, and
// like it over plain http:// only (spec §5.6: a TLS listener needs another HTTP client).
import { formatSocketAddr } from '../config/addr.js';
import { readApiSecretIfPresent } from '../config/secrets.js';
import type { ListenAddr, ServerConfig } from '../config/types.js';
import { parseJson } from '../core/json/parse.js';
import { stringifyJson } from '../core/json/stringify.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json/value.js';

const TIMEOUT_MS = 10_000;
/** A status body is well under 1 KiB; anything past this is not a node answering. */
const BODY_LIMIT = 1024 * 1024;

/** A request to the node that failed; the message is meant for the operator. */
export class ClientError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClientError';
  }
}

export function basicAuthHeader(secret: string): string {
  return `Basic ${Buffer.from(`node:${secret}`, 'utf8').toString('base64')}`;
}

function networkReason(err: unknown): string {
  if (err instanceof Error && err.name === 'TimeoutError') {
    return `no answer within ${TIMEOUT_MS / 1000} s`;
  }
  const cause = err instanceof Error ? (err.cause as { code?: unknown; message?: unknown }) : null;
  const code = typeof cause?.code === 'string' ? cause.code : '';
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused (is `mwnode server run` running?)',
    ECONNRESET: 'connection reset by the node',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
  };
  if (known[code] !== undefined) return known[code];
  if (typeof cause?.message === 'string') return cause.message;
  return err instanceof Error ? err.message : String(err);
}

async function readLimited(res: Response): Promise<string> {
  if (res.body === null) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of res.body) {
    total += chunk.length;
    if (total > BODY_LIMIT) throw new ClientError(`the answer is larger than ${BODY_LIMIT} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** What a refusal says; the node's own text (Epic's errors are plain text) when it sent one. */
function httpFailure(status: number, body: string): ClientError {
  if (status === 401) {
    return new ClientError('the node refused the API secret (HTTP 401); check api_secret_path');
  }
  const said = body.trim().slice(0, 200);
  return new ClientError(`the node answered HTTP ${status}${said === '' ? '' : `: ${said}`}`);
}

/** Sends `method path` to the node's API with the credential and returns the JSON it answers. */
export async function requestJson(
  addr: ListenAddr,
  method: 'GET' | 'POST',
  path: string,
  secret: string | null,
): Promise<JsonValue> {
  const url = `http://${formatSocketAddr(addr)}${path}`;
  const headers: Record<string, string> =
    secret === null ? {} : { authorization: basicAuthHeader(secret) };
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers,
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    throw new ClientError(
      `cannot reach the node at http://${formatSocketAddr(addr)}: ${networkReason(err)}`,
    );
  }
  const text = await readLimited(res);
  if (res.status !== 200) throw httpFailure(res.status, text);
  const body = parseJsonOrUndefined(text);
  if (body === undefined) throw new ClientError('the node answered something that is not JSON');
  return body;
}

/** GETs `path` from the node's API and returns the JSON object it answers. */
export async function getJson(
  addr: ListenAddr,
  path: string,
  secret: string | null,
): Promise<JsonObject> {
  const body = await requestJson(addr, 'GET', path, secret);
  if (!isJsonObject(body))
    throw new ClientError('the node answered something that is not a JSON object');
  return body;
}

function parseJsonOrUndefined(text: string): JsonValue | undefined {
  try {
    return parseJson(text);
  } catch {
    return undefined;
  }
}

function field(obj: JsonObject, key: string, where: string): JsonValue {
  const value = obj[key];
  if (value === undefined || value === null) {
    throw new ClientError(`unexpected status from the node: no "${where}${key}"`);
  }
  return value;
}

function scalar(value: JsonValue): string {
  return typeof value === 'object' && value !== null ? stringifyJson(value) : String(value);
}

/** `cuckaroo 0, cuckatoo 0, progpow 5, randomx 7`: every algorithm present, by name. */
export function formatDifficulty(value: JsonValue): string {
  if (!isJsonObject(value)) return scalar(value);
  const keys = Object.keys(value).sort();
  return keys.map((k) => `${k} ${scalar(value[k] ?? null)}`).join(', ');
}

function formatSync(status: JsonObject): string {
  const sync = scalar(field(status, 'sync_status', ''));
  const info = status.sync_info;
  if (!isJsonObject(info)) return sync;
  const parts = Object.keys(info).map((k) => `${k} ${scalar(info[k] ?? null)}`);
  return `${sync} (${parts.join(', ')})`;
}

/** Supply lines appear only when the node sends them (older Epic nodes do not). */
function supplyLines(status: JsonObject): string[] {
  const lines: string[] = [];
  if (status.supply !== undefined && status.max_supply !== undefined) {
    lines.push(`Supply: ${scalar(status.supply)} of ${scalar(status.max_supply)} EPIC`);
  }
  if (status.blocks_to_next_halving !== undefined) {
    lines.push(`Blocks to next halving: ${scalar(status.blocks_to_next_halving)}`);
  }
  return lines;
}

/** The status as Epic's `client status` prints it, plus sync and supply lines. */
export function formatStatus(status: JsonObject): string {
  const tip = field(status, 'tip', '');
  if (!isJsonObject(tip))
    throw new ClientError('unexpected status from the node: "tip" is not an object');
  const lines = [
    'Node status',
    '--------------------------',
    `Protocol version: ${scalar(field(status, 'protocol_version', ''))}`,
    `User agent: ${scalar(field(status, 'user_agent', ''))}`,
    `Connections: ${scalar(field(status, 'connections', ''))}`,
    `Chain height: ${scalar(field(tip, 'height', 'tip.'))}`,
    `Last block hash: ${scalar(field(tip, 'last_block_pushed', 'tip.'))}`,
    `Previous block hash: ${scalar(field(tip, 'prev_block_to_last', 'tip.'))}`,
    `Total difficulty: ${formatDifficulty(field(tip, 'total_difficulty', 'tip.'))}`,
    `Sync status: ${formatSync(status)}`,
    ...supplyLines(status),
  ];
  return `${lines.join('\n')}\n`;
}

/** The owner credential the config points at, if any. */
export function ownerSecretOf(config: ServerConfig): string | null {
  return config.apiSecretPath === null ? null : readApiSecretIfPresent(config.apiSecretPath);
}

/** Fetches `/v1/status` with the owner credential the config points at. */
export function fetchStatus(config: ServerConfig): Promise<JsonObject> {
  return getJson(config.apiHttpAddr, '/v1/status', ownerSecretOf(config));
}

/** Fetches and formats `/v1/status`. */
export async function fetchStatusText(config: ServerConfig): Promise<string> {
  return formatStatus(await fetchStatus(config));
}
