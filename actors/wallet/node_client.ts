// The wallet's client of the node's JSON-RPC API (epic-wallet impls/src/node_clients/http.rs):
// POST `<node>/v2/foreign` or `/v2/owner`, id 1, `params: null` for no-argument methods, HTTP
// Basic `<user>:<secret>` when a secret is known: `node_api_username`, by default the spec's
// `node` (what mwnode expects; Epic's wallet always sends `epic`, what Epic's node expects).
// Failures become NodeClientError carrying Epic's wallet Error variant (`ClientCallback`,
// `BadRequest`, `Unauthorized`, `NotFound`) and its display text.
import { toHex } from '../../core/bytes.js';
import { parseJson } from '../../core/json/parse.js';
import { stringifyJson } from '../../core/json/stringify.js';
import type { JsonValue } from '../../core/json/value.js';
import {
  asArray,
  asHex,
  asHexSized,
  asObject,
  asString,
  asU64,
  asUint,
  field,
  type JsonRecord,
  sub,
} from '../../core/serde/fields.js';
import { kernelFromJson } from '../../core/serde/transaction.js';
import type { TxKernel } from '../../core/types/transaction.js';
import type { ChainUnspentOutput } from '../../core/wallet/scan_match.js';
import { describeFailure, okOf, readCappedBody } from './http_reply.js';

/** Epic's wallet Error variants this client produces. */
export type NodeClientErrorKind = 'ClientCallback' | 'BadRequest' | 'Unauthorized' | 'NotFound';

const DISPLAY: Record<NodeClientErrorKind, (d: string) => string> = {
  ClientCallback: (d) => `Client Callback Error: ${d}`,
  BadRequest: (d) => `Bad request (HTTP 400): ${d}`,
  Unauthorized: () => 'Unauthorized (HTTP 401): Authentication failed',
  NotFound: () => 'Not found (HTTP 404): Resource not found',
};

export class NodeClientError extends Error {
  override readonly name = 'NodeClientError';
  constructor(
    readonly kind: NodeClientErrorKind,
    readonly detail = '',
  ) {
    super(DISPLAY[kind](detail));
  }

  /** The externally tagged JSON of Epic's Error (`"Unauthorized"`, `{"ClientCallback":"…"}`). */
  get err(): JsonValue {
    return this.kind === 'Unauthorized' || this.kind === 'NotFound'
      ? this.kind
      : { [this.kind]: this.detail };
  }
}

export interface NodeClientOptions {
  /** check_node_api_http_addr, e.g. `http://127.0.0.1:3413`. */
  readonly url: string;
  /** First line of node_api_secret_path; null sends no Authorization header. */
  readonly secret: string | null;
  /** node_api_username; default `node`. */
  readonly username?: string;
  /** Per request; Epic's client uses 300 s. */
  readonly timeoutMs?: number;
  /** Replies larger than this are refused (a page of 1,000 outputs with proofs is ~1.7 MB). */
  readonly maxResponseBytes?: number;
  /** get_outputs chunk size (Epic: 500, env EPIC_OUTPUT_QUERY_SIZE). */
  readonly outputChunk?: number;
}

export interface NodeVersion {
  readonly nodeVersion: string;
  readonly blockHeaderVersion: number;
}

/** Epic's NodeVersionInfo: what the Foreign API's compatibility check reads. */
export interface NodeVersionInfo extends NodeVersion {
  /** False for the stand-in Epic uses when the node answered 404. */
  readonly verified: boolean;
}

export interface NodeTip {
  readonly height: bigint;
  /** Hash of the tip block, hex. */
  readonly lastBlockPushed: string;
}

export interface NodeStatus {
  readonly protocolVersion: number;
  readonly userAgent: string;
  readonly connections: number;
  readonly tip: NodeTip & {
    readonly prevBlockToLast: string;
    readonly totalDifficulty: ReadonlyMap<string, bigint>;
  };
  /** `"no_sync"` when synced. */
  readonly syncStatus: string;
  readonly syncInfo: JsonValue | null;
}

/** get_outputs: where each found commitment is. */
export interface OutputLocation {
  readonly height: bigint;
  readonly mmrIndex: bigint;
}

export interface LocatedKernel {
  readonly kernel: TxKernel;
  readonly height: bigint;
  readonly mmrIndex: bigint;
}

export interface UnspentPage {
  readonly highestIndex: bigint;
  readonly lastRetrievedIndex: bigint;
  /** Spent entries are dropped, as Epic does defensively. */
  readonly outputs: readonly ChainUnspentOutput[];
}

export interface PmmrRange {
  /** last_retrieved_index: where a scan starts. */
  readonly startIndex: bigint;
  /** highest_index: where it ends. */
  readonly endIndex: bigint;
}

export const DEFAULT_TIMEOUT_MS = 300_000;
export const DEFAULT_MAX_RESPONSE = 32 * 1024 * 1024;
export const OUTPUT_CHUNK = 500;

const FOREIGN = '/v2/foreign';
const OWNER = '/v2/owner';

/** Transport or JSON-RPC framing failure, before Epic's per-call wording is applied. */
class TransportError extends Error {}

type Reply = { readonly error: JsonRecord | null; readonly result: JsonValue | undefined };

export class NodeClient {
  private readonly base: string;
  private readonly auth: string | null;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly chunk: number;
  private version: NodeVersionInfo | null = null;

  constructor(opts: NodeClientOptions) {
    this.base = opts.url.replace(/\/+$/, '');
    this.auth =
      opts.secret === null
        ? null
        : `Basic ${Buffer.from(`${opts.username ?? 'node'}:${opts.secret}`).toString('base64')}`;
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE;
    this.chunk = Math.max(1, opts.outputChunk ?? OUTPUT_CHUNK);
  }

  /** One JSON-RPC exchange; TransportError as Epic's client error texts. */
  private async exchange(endpoint: string, method: string, params: JsonValue): Promise<Reply> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.auth !== null) headers.authorization = this.auth;
    let text: string;
    try {
      const r = await fetch(this.base + endpoint, {
        method: 'POST',
        headers,
        body: stringifyJson({ jsonrpc: '2.0', method, id: 1, params }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      text = await readBounded(r, this.maxBytes);
    } catch (e) {
      throw new TransportError(`Request error: Cannot make request: ${describeFailure(e)}`);
    }
    let v: JsonValue;
    try {
      v = parseJson(text);
    } catch {
      throw new TransportError('ResponseError error: Cannot parse response');
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v) || !('id' in v)) {
      throw new TransportError('ResponseError error: Cannot parse response');
    }
    const o = v as JsonRecord;
    const error = o.error;
    if (
      error !== undefined &&
      error !== null &&
      (typeof error !== 'object' || Array.isArray(error))
    ) {
      throw new TransportError('ResponseError error: Cannot parse response');
    }
    return { error: (error ?? null) as JsonRecord | null, result: o.result };
  }

  /** `send_json_request`: the `Ok` payload decoded by `decode`, or Epic's error mapping. */
  /** One call's `result`, with Epic's client error mapping of transport and `error` replies. */
  private async result(endpoint: string, method: string, params: JsonValue): Promise<JsonValue> {
    let reply: Reply;
    try {
      reply = await this.exchange(endpoint, method, params);
    } catch (e) {
      throw new NodeClientError('ClientCallback', `Error calling ${method}: ${describeFailure(e)}`);
    }
    if (reply.error !== null) {
      const message = typeof reply.error.message === 'string' ? reply.error.message : '';
      if (message.includes('Unauthorized')) throw new NodeClientError('Unauthorized');
      if (message.includes('Not found')) throw new NodeClientError('NotFound');
      throw new NodeClientError(
        'BadRequest',
        `Unable to parse response for ${method}: RPC error response`,
      );
    }
    return reply.result ?? null;
  }

  private async call<T>(
    endpoint: string,
    method: string,
    params: JsonValue,
    decode: (ok: JsonValue, path: string) => T,
  ): Promise<T> {
    const result = await this.result(endpoint, method, params);
    try {
      return decode(okOf(result), 'result.Ok');
    } catch (e) {
      throw new NodeClientError(
        'BadRequest',
        `Unable to parse response for ${method}: JSON decode error: ${describeFailure(e)}`,
      );
    }
  }

  getVersion(): Promise<NodeVersion> {
    return this.call(FOREIGN, 'get_version', null, (ok, p) => {
      const o = asObject(ok, p);
      return {
        nodeVersion: asString(field(o, 'node_version', p), sub(p, 'node_version')),
        blockHeaderVersion: asUint(
          field(o, 'block_header_version', p),
          sub(p, 'block_header_version'),
          16,
        ),
      };
    });
  }

  /**
   * `get_version_info`: get_version, cached after the first answer. A failure whose text has
   * "404" gives Epic's stand-in 1.0.0 / header version 1 (unverified); any other failure null
   * (the compatibility check then assumes header version 2).
   */
  async versionInfo(): Promise<NodeVersionInfo | null> {
    if (this.version !== null) return this.version;
    try {
      this.version = { ...(await this.getVersion()), verified: true };
    } catch (e) {
      if (!(e instanceof NodeClientError) || !e.message.includes('404')) return null;
      this.version = { nodeVersion: '1.0.0', blockHeaderVersion: 1, verified: false };
    }
    return this.version;
  }

  getTip(): Promise<NodeTip> {
    return this.call(FOREIGN, 'get_tip', null, tipFromJson);
  }

  /** Owner get_status (needs the owner secret). */
  getStatus(): Promise<NodeStatus> {
    return this.call(OWNER, 'get_status', null, statusFromJson);
  }

  /**
   * `get_outputs_from_node`: the given commitments (hex) that are unspent on chain, queried in
   * concurrent chunks; keys of the result are lowercase hex.
   */
  async getOutputs(commits: readonly string[]): Promise<Map<string, OutputLocation>> {
    const found = new Map<string, OutputLocation>();
    if (commits.length === 0) return found;
    const chunks: string[][] = [];
    for (let i = 0; i < commits.length; i += this.chunk) {
      chunks.push(commits.slice(i, i + this.chunk));
    }
    const replies = await Promise.all(
      chunks.map((c) =>
        this.exchange(FOREIGN, 'get_outputs', [c, null, null, false, false]).catch((e) => {
          throw new NodeClientError(
            'ClientCallback',
            `Getting outputs by id: ${describeFailure(e)}`,
          );
        }),
      ),
    );
    for (const reply of replies) {
      for (const item of outputsOfReply(reply)) {
        found.set(item.commit, item.at);
      }
    }
    return found;
  }

  /** get_kernel; null when the node says NotFound. */
  async getKernel(
    excess: string,
    minHeight: bigint | null,
    maxHeight: bigint | null,
  ): Promise<LocatedKernel | null> {
    let reply: Reply;
    try {
      reply = await this.exchange(FOREIGN, 'get_kernel', [excess, minHeight, maxHeight]);
    } catch (e) {
      throw new NodeClientError(
        'ClientCallback',
        `Error calling get_kernel: ${describeFailure(e)}`,
      );
    }
    try {
      if (reply.error !== null) throw new Error('RPC error response');
      return locatedKernelFromJson(okOf(reply.result), 'result.Ok');
    } catch (e) {
      // Epic searches the whole reply's debug text for "NotFound".
      if (stringifyJson({ error: reply.error, result: reply.result ?? null }).includes('NotFound'))
        return null;
      throw new NodeClientError(
        'ClientCallback',
        `Unable to parse response for get_kernel: ${describeFailure(e)}`,
      );
    }
  }

  /** get_unspent_outputs(start, end, max, include_proof = true). */
  async getUnspentOutputs(
    startIndex: bigint,
    endIndex: bigint | null,
    maxOutputs: bigint,
  ): Promise<UnspentPage> {
    const listing = await this.call(
      FOREIGN,
      'get_unspent_outputs',
      [startIndex, endIndex, maxOutputs, true],
      (ok, p) => asObject(ok, p),
    );
    return unspentPageFromListing(listing);
  }

  /** get_pmmr_indices(start_height, end_height). */
  getPmmrIndices(startHeight: bigint, endHeight: bigint | null): Promise<PmmrRange> {
    return this.call(FOREIGN, 'get_pmmr_indices', [startHeight, endHeight], (ok, p) => {
      const o = asObject(ok, p);
      return {
        startIndex: asU64(field(o, 'last_retrieved_index', p), sub(p, 'last_retrieved_index')),
        endIndex: asU64(field(o, 'highest_index', p), sub(p, 'highest_index')),
      };
    });
  }

  /** push_transaction([tx, fluff]); `tx` is the node-native transaction JSON. */
  /**
   * push_transaction([tx, fluff]). Unlike Epic's client, which reads only `result.Ok`, a node
   * refusal (`result.Err`) is `ClientCallback: Posting transaction to node: <Err as JSON>`.
   */
  async pushTransaction(tx: JsonValue, fluff: boolean): Promise<void> {
    const result = await this.result(FOREIGN, 'push_transaction', [tx, fluff]);
    if (typeof result === 'object' && result !== null && !Array.isArray(result) && 'Err' in result)
      throw new NodeClientError(
        'ClientCallback',
        `Posting transaction to node: ${stringifyJson(result.Err ?? null)}`,
      );
  }
}

/** The body as text, refusing more than `max` bytes. */
async function readBounded(r: Response, max: number): Promise<string> {
  const declared = Number(r.headers.get('content-length') ?? '0');
  if (declared > max) {
    await r.body?.cancel();
    throw new Error(`reply of ${declared} bytes exceeds ${max}`);
  }
  return readCappedBody(r, max);
}

function tipFromJson(ok: JsonValue, p: string): NodeTip {
  const o = asObject(ok, p);
  return {
    height: asU64(field(o, 'height', p), sub(p, 'height')),
    lastBlockPushed: asString(field(o, 'last_block_pushed', p), sub(p, 'last_block_pushed')),
  };
}

function statusFromJson(ok: JsonValue, p: string): NodeStatus {
  const o = asObject(ok, p);
  const tp = sub(p, 'tip');
  const tip = asObject(field(o, 'tip', p), tp);
  const dp = sub(tp, 'total_difficulty');
  const diff = asObject(field(tip, 'total_difficulty', tp), dp);
  return {
    protocolVersion: asUint(field(o, 'protocol_version', p), sub(p, 'protocol_version'), 32),
    userAgent: asString(field(o, 'user_agent', p), sub(p, 'user_agent')),
    connections: asUint(field(o, 'connections', p), sub(p, 'connections'), 32),
    tip: {
      ...tipFromJson(tip, tp),
      prevBlockToLast: asString(
        field(tip, 'prev_block_to_last', tp),
        sub(tp, 'prev_block_to_last'),
      ),
      totalDifficulty: new Map(Object.entries(diff).map(([k, v]) => [k, asU64(v, sub(dp, k))])),
    },
    syncStatus: asString(field(o, 'sync_status', p), sub(p, 'sync_status')),
    syncInfo: o.sync_info ?? null,
  };
}

const clientCallback = (detail: string) => new NodeClientError('ClientCallback', detail);

function outputsOfReply(reply: Reply): { commit: string; at: OutputLocation }[] {
  const parseFail = (e: unknown) =>
    clientCallback(`Unable to parse response for get_outputs: ${describeFailure(e)}`);
  let items: readonly JsonValue[];
  try {
    if (reply.error !== null) throw new Error('RPC error response');
    items = asArray(okOf(reply.result), 'result.Ok');
  } catch (e) {
    throw parseFail(e);
  }
  return items.map((item, i) => {
    const p = `result.Ok[${i}]`;
    let commit: string;
    let height: bigint | null;
    let mmrIndex: bigint;
    try {
      const o = asObject(item, p);
      commit = toHex(asHexSized(field(o, 'commit', p), sub(p, 'commit'), 33));
      const h = o.block_height;
      height = h === undefined || h === null ? null : asU64(h, sub(p, 'block_height'));
      mmrIndex = asU64(field(o, 'mmr_index', p), sub(p, 'mmr_index'));
    } catch (e) {
      throw parseFail(e);
    }
    if (height === null)
      throw clientCallback(`Missing block height for output Commitment(${commit})`);
    return { commit, at: { height, mmrIndex } };
  });
}

function locatedKernelFromJson(ok: JsonValue, p: string): LocatedKernel {
  const o = asObject(ok, p);
  return {
    kernel: kernelFromJson(field(o, 'tx_kernel', p), sub(p, 'tx_kernel')),
    height: asU64(field(o, 'height', p), sub(p, 'height')),
    mmrIndex: asU64(field(o, 'mmr_index', p), sub(p, 'mmr_index')),
  };
}

/** OutputListing → page; Epic errors on an unspent output without proof or block height. */
export function unspentPageFromListing(listing: JsonRecord): UnspentPage {
  const p = 'result.Ok';
  try {
    const op = sub(p, 'outputs');
    const outputs = asArray(field(listing, 'outputs', p), op)
      .map((item, i) => unspentOutputFromJson(item, sub(op, i)))
      .filter((o): o is ChainUnspentOutput => o !== null);
    return {
      highestIndex: asU64(field(listing, 'highest_index', p), sub(p, 'highest_index')),
      lastRetrievedIndex: asU64(
        field(listing, 'last_retrieved_index', p),
        sub(p, 'last_retrieved_index'),
      ),
      outputs,
    };
  } catch (e) {
    if (e instanceof NodeClientError) throw e;
    throw new NodeClientError(
      'BadRequest',
      `Unable to parse response for get_unspent_outputs: JSON decode error: ${describeFailure(e)}`,
    );
  }
}

/** One OutputPrintable; null when spent (Epic filters those out defensively). */
function unspentOutputFromJson(item: JsonValue, p: string): ChainUnspentOutput | null {
  const o = asObject(item, p);
  if (field(o, 'spent', p) === true) return null;
  const type = asString(field(o, 'output_type', p), sub(p, 'output_type'));
  if (type !== 'Coinbase' && type !== 'Transaction') throw new Error(`output_type ${type}`);
  const commit = asHexSized(field(o, 'commit', p), sub(p, 'commit'), 33);
  const missing = (what: string) =>
    clientCallback(
      `Unexpected error in returned output (missing ${what}): Commitment(${toHex(commit)})`,
    );
  const { proof, block_height: height } = o;
  if (proof === undefined || proof === null) throw missing('range proof');
  if (height === undefined || height === null) throw missing('block height');
  return {
    commit,
    proof: asHex(proof, sub(p, 'proof')),
    isCoinbase: type === 'Coinbase',
    height: asU64(height, sub(p, 'block_height')),
    mmrIndex: asU64(field(o, 'mmr_index', p), sub(p, 'mmr_index')),
  };
}
