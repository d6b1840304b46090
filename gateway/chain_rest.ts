// The `/v1` chain routes (node-api reference §6): path and query parsed as Epic's handlers do,
// then the same operation as the `/v2` twin, so success payloads are equal by construction.
// Decisions where Epic and the spec differ are in the README ("Decisions").
import { toHex } from '../core/bytes.js';
import { stringifyJson } from '../core/json/stringify.js';
import type { JsonValue } from '../core/json/value.js';
import type { ChainReadOperations, LeafMmr } from './chain_reads.js';
import { epicHex } from './chain_reads.js';
import { apiErrorResponse, busyResponse, internalError, isBusy } from './errors.js';
import { type HttpRequest, type HttpResponse, respond } from './http.js';
import { RpcFailure } from './jsonrpc.js';

/** Which `/v1` chain route family a request reached (routes.ts). */
export type ChainRestOp =
  | 'headers'
  | 'blocks'
  | 'kernels'
  | 'outputs'
  | 'txhashset'
  | 'validate'
  | 'compact';

/** The chain actor's full validation and compaction, as `/v1/chain/{validate,compact}` run them. */
export interface ChainMaintenance {
  validate(): Promise<unknown>;
  compact(): Promise<unknown>;
}

type Reads = Omit<ChainReadOperations, 'chainRest'>;

/** The request's payload (printed pretty); other answers are thrown as a Reply. */
type Answer = JsonValue;

class Reply {
  constructor(readonly response: HttpResponse) {}
}
const reply = (status: number, message = ''): never => {
  throw new Reply(respond(status, message));
};
const badRequest = (message: string): never => reply(400, message);

/** `Commitment::from_vec`: zero-padded or cut to 33 bytes. */
function fixedCommit(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(33);
  out.set(bytes.subarray(0, 33));
  return out;
}

/** Epic's `right_path_element!`: the last segment, trailing slashes ignored. */
function lastSegment(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/** A decimal u64 as Rust's `parse::<u64>` reads it (an optional `+`), or null. */
function parseU64(s: string): bigint | null {
  if (!/^\+?[0-9]+$/.test(s)) return null;
  const n = BigInt(s);
  return n <= 0xffff_ffff_ffff_ffffn ? n : null;
}

/** `check_block_param`: somewhere in the input, 64 hex digits in a row. */
const HASH_SOMEWHERE = /[0-9a-fA-F]{64}/;

function query(req: HttpRequest): URLSearchParams {
  return new URLSearchParams(req.query);
}

/** Epic's `parse_param_no_err!`: absent or unparsable → the default. */
function u64Or(q: URLSearchParams, name: string, dflt: bigint): bigint {
  const v = q.get(name);
  return (v === null ? null : parseU64(v)) ?? dflt;
}

/** Epic's `parse_param!`: absent → the default; unparsable → 400. */
function u64OrRefuse(q: URLSearchParams, name: string, dflt: bigint): bigint {
  const v = q.get(name);
  if (v === null) return dflt;
  return parseU64(v) ?? badRequest(`invalid value of parameter ${name}`);
}

async function headers(ops: Reads, req: HttpRequest): Promise<Answer> {
  const input = lastSegment(req.path);
  // An unspent output's commitment first; anything else falls through.
  if (epicHex(input) !== null) {
    try {
      return await ops.getHeader(null, null, input);
    } catch (e) {
      if (!(e instanceof RpcFailure)) throw e;
    }
  }
  const height = parseU64(input);
  if (height !== null) return ops.getHeader(height, null, null);
  if (!HASH_SOMEWHERE.test(input)) badRequest('Not a valid hash or height.');
  if (epicHex(input) === null) badRequest('invalid input: invalid digit found in string');
  return ops.getHeader(null, input, null);
}

async function blocks(ops: Reads, req: HttpRequest): Promise<Answer> {
  const input = lastSegment(req.path);
  let merkle = true;
  let compact = false;
  for (const name of query(req).keys()) {
    if (name === 'no_merkle_proof') merkle = false;
    else if (name === 'compact') compact = true;
    else if (name !== 'include_proof') badRequest(`unsupported query parameter: ${name}`);
  }
  const height = parseU64(input);
  let hash: string | null = null;
  if (height === null) {
    if (!HASH_SOMEWHERE.test(input))
      badRequest('failed to parse input: Bad arguments: Not a valid hash or height.');
    if (epicHex(input) === null)
      badRequest(
        'failed to parse input: Bad arguments: invalid input: invalid digit found in string',
      );
    hash = input;
  }
  try {
    // get_block's payload; `?no_merkle_proof` drops the Merkle proofs as in Epic.
    return await ops.getBlockWith(height, hash, {
      includeProof: true,
      includeMerkleProof: merkle,
      compact,
    });
  } catch (e) {
    // Epic answers an unknown height 400 (the height is resolved while parsing the input).
    if (height !== null && e instanceof RpcFailure && e.error.kind === 'NotFound')
      badRequest('failed to parse input: Not found.');
    throw e;
  }
}

async function kernels(ops: Reads, req: HttpRequest, headHeight: () => Promise<bigint>) {
  const q = query(req);
  let min: bigint | null = null;
  let max: bigint | null = null;
  const minText = q.get('min_height');
  if (minText !== null) {
    const h = parseU64(minText) ?? badRequest('invalid minimum height');
    min = h === 0n ? null : h;
  }
  const maxText = q.get('max_height');
  if (maxText !== null) {
    const h = parseU64(maxText) ?? badRequest('invalid maximum height');
    max = h >= (await headHeight()) ? null : h;
  }
  try {
    return await ops.getKernel(lastSegment(req.path), min, max);
  } catch (e) {
    // Epic's `/v1` answers an unknown kernel with `null`.
    if (e instanceof RpcFailure && e.error.kind === 'NotFound') return null;
    throw e;
  }
}

async function outputs(ops: Reads, req: HttpRequest): Promise<Answer> {
  const which = lastSegment(req.path);
  if (which !== 'byids' && which !== 'byheight') reply(400);
  if (req.query === '') badRequest('no query string');
  const q = query(req);
  if (which === 'byids') {
    const ids = q
      .getAll('id')
      .flatMap((v) => v.split(','))
      .filter((v) => v !== '');
    return ops.getOutputs(ids, null, null, false, false);
  }
  const start = u64OrRefuse(q, 'start_height', 1n);
  const end = u64OrRefuse(q, 'end_height', 1n);
  const found = await ops.getOutputs(null, start, end, q.has('include_rp'), true);
  // Epic's optional `id` filter (unparsable ids are dropped, as Epic does).
  const wanted = new Set(
    q
      .getAll('id')
      .flatMap((v) => v.split(','))
      .flatMap((v) => {
        const b = epicHex(v);
        return b === null ? [] : [toHex(fixedCommit(b))];
      }),
  );
  if (wanted.size === 0 || !Array.isArray(found)) return found;
  return found.filter((o) => wanted.has((o as { commit?: string }).commit ?? ''));
}

async function txhashset(ops: Reads, req: HttpRequest): Promise<Answer> {
  const q = query(req);
  const n = u64Or(q, 'n', 10n);
  const last = (mmr: LeafMmr) => ops.lastLeafHashes(mmr, n);
  switch (lastSegment(req.path)) {
    case 'roots':
      return ops.txhashsetRoots();
    case 'lastoutputs':
      return last('output');
    case 'lastrangeproofs':
      return last('rangeproof');
    case 'lastkernels':
      return ops.lastKernels(n); // the spec's payload: get_last_n_kernels' raw kernels
    case 'outputs': {
      const end = u64Or(q, 'end_index', 0n);
      const start = u64Or(q, 'start_index', 1n);
      return ops.unspentOutputs(start, end === 0n ? null : end, u64Or(q, 'max', 100n), true);
    }
    case 'heightstopmmr': {
      const end = u64Or(q, 'end_height', 0n);
      return ops.pmmrIndices(u64Or(q, 'start_height', 1n), end === 0n ? null : end);
    }
    case 'merkleproof': {
      const id = q.get('id') ?? '';
      return id === '' ? reply(404) : ops.currentMerkleProof(id);
    }
    default:
      return reply(400);
  }
}

/**
 * `/v1/chain/validate` and `/v1/chain/compact`: the payload of their `/v2` twins (`null`; Epic
 * prints the text `{}`), or Epic's 500 `validate failed: <chain error>` / `compact failed: …`
 * with the chain error's text (validate_chain on `/v2` drops it).
 */
async function maintain(run: () => Promise<unknown>, name: string): Promise<HttpResponse> {
  try {
    await run();
    return respond(200, stringifyJson(null));
  } catch (e) {
    if (isBusy(e)) return busyResponse();
    return respond(500, `${name} failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Answers one `/v1` chain request; errors become Epic's statuses (errors.ts). */
export async function chainRest(
  ops: Reads,
  op: ChainRestOp,
  req: HttpRequest,
  headHeight: () => Promise<bigint>,
  chain: ChainMaintenance,
): Promise<HttpResponse> {
  if (op === 'validate') return maintain(chain.validate, 'validate');
  if (op === 'compact') return maintain(chain.compact, 'compact');
  try {
    let answer: Answer;
    if (op === 'headers') answer = await headers(ops, req);
    else if (op === 'blocks') answer = await blocks(ops, req);
    else if (op === 'kernels') answer = await kernels(ops, req, headHeight);
    else if (op === 'outputs') answer = await outputs(ops, req);
    else answer = await txhashset(ops, req);
    return respond(200, stringifyJson(answer, { pretty: true }));
  } catch (e) {
    if (e instanceof Reply) return e.response;
    if (isBusy(e)) return busyResponse();
    return apiErrorResponse(e instanceof RpcFailure ? e.error : internalError(e));
  }
}
