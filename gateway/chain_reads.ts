// The chain reads of the node API, once for `/v1` and `/v2`: arguments checked with Epic's error
// texts, then one `read` request to the chain actor, whose reply is already the payload.
import type { BlockRef, ChainRead, ReadResult } from '../actors/chain/messages.js';
import type { JsonValue } from '../core/json/value.js';
import { type ChainRestOp, chainRest } from './chain_rest.js';
import type { ApiError } from './errors.js';
import type { HttpRequest, HttpResponse } from './http.js';
import { RpcFailure } from './jsonrpc.js';
import type { Services } from './services.js';

/** Our cap on get_blocks (Epic has none and can be made to build any number of blocks). */
export const MAX_BLOCKS_PER_CALL = 1000n;
const COMMIT_HEX_LENGTH = 66;
const HASH_SIZE = 32;
const COMMIT_SIZE = 33;

export type LeafMmr = 'output' | 'rangeproof' | 'kernel';

/** How `/v1/blocks` prints a block. */
export interface BlockForm {
  readonly includeProof: boolean;
  readonly includeMerkleProof: boolean;
  readonly compact: boolean;
}

export interface ChainReadOperations {
  getHeader(height: bigint | null, hash: string | null, commit: string | null): Promise<JsonValue>;
  getBlock(height: bigint | null, hash: string | null, commit: string | null): Promise<JsonValue>;
  /** `/v1/blocks`: get_block by height or hash with Epic's proof switches. */
  getBlockWith(height: bigint | null, hash: string | null, how: BlockForm): Promise<JsonValue>;
  getBlocks(
    start: bigint | null,
    end: bigint | null,
    hash: string | null,
    commit: string | null,
  ): Promise<JsonValue>;
  getKernel(excess: string, min: bigint | null, max: bigint | null): Promise<JsonValue>;
  lastKernels(distance: bigint): Promise<JsonValue>;
  getOutputs(
    commits: readonly string[] | null,
    start: bigint | null,
    end: bigint | null,
    includeProof: boolean,
    includeMerkleProof: boolean,
  ): Promise<JsonValue>;
  unspentOutputs(
    start: bigint,
    end: bigint | null,
    max: bigint,
    includeProof: boolean,
  ): Promise<JsonValue>;
  pmmrIndices(start: bigint, end: bigint | null): Promise<JsonValue>;
  /** `/v1/txhashset/roots`. */
  txhashsetRoots(): Promise<JsonValue>;
  /** `/v1/txhashset/last{outputs,rangeproofs,kernels}` (hashes of the last `n` leaves). */
  lastLeafHashes(mmr: LeafMmr, n: bigint): Promise<JsonValue>;
  /** `/v1/txhashset/merkleproof?id=`. */
  currentMerkleProof(commit: string): Promise<JsonValue>;
  /** A `/v1` chain route, answered whole (chain_rest.ts). */
  chainRest(op: ChainRestOp, req: HttpRequest): Promise<HttpResponse>;
}

const fail = (error: ApiError): never => {
  throw new RpcFailure(error);
};

/**
 * Epic's `util::from_hex`: an even number of hex digits, an optional `0x` prefix. Null when it
 * refuses (Epic also crashes on an empty string; we refuse it).
 */
export function epicHex(s: string): Uint8Array | null {
  if (s.length % 2 === 1 || s.length === 0) return null;
  const body = s.startsWith('0x') ? s.slice(2) : s;
  if (!/^[0-9a-fA-F]*$/.test(body)) return null;
  // Node's own hex decoder: a wallet's get_outputs sends 500 commitments per call.
  return new Uint8Array(Buffer.from(body, 'hex'));
}

/** `Hash::from_vec` / `Commitment::from_vec`: padded with zeros or cut to `size`. */
function fixed(bytes: Uint8Array, size: number): Uint8Array {
  const out = new Uint8Array(size);
  out.set(bytes.subarray(0, size));
  return out;
}

function blockHash(hash: string): Uint8Array {
  const bytes = epicHex(hash);
  if (bytes === null)
    return fail({ kind: 'Argument', message: 'invalid block hash: invalid digit found in string' });
  return fixed(bytes, HASH_SIZE);
}

/** Height first, then hash, then the unspent output commitment (Epic's `parse_inputs`). */
function blockRef(height: bigint | null, hash: Uint8Array | null, commit: string | null): BlockRef {
  if (height !== null) return { height };
  if (hash !== null) return { hash };
  if (commit !== null) {
    const bytes = epicHex(commit);
    if (bytes === null)
      return fail({ kind: 'Argument', message: `Not a valid commitment, id: ${commit}` });
    return { commit: fixed(bytes, COMMIT_SIZE) };
  }
  return fail({ kind: 'Argument', message: 'not a valid hash, height or output commit' });
}

function payload(r: ReadResult): JsonValue {
  if ('ok' in r) return r.ok;
  if (r.err === 'NotFound') return fail({ kind: 'NotFound' });
  return fail({ kind: r.err, message: r.message });
}

export function chainReadOperations(services: Services): ChainReadOperations {
  const reads = readOperations(services);
  const headHeight = async () =>
    (services.head() ?? (await services.chain('getHead', {}))).tip.height;
  const maintenance = {
    validate: () => services.chain('validateChain', {}),
    compact: () => services.chain('compactChain', {}),
  };
  return {
    ...reads,
    chainRest: (op, req) => chainRest(reads, op, req, headHeight, maintenance),
  };
}

function readOperations(services: Services): Omit<ChainReadOperations, 'chainRest'> {
  const read = async (q: ChainRead) =>
    payload(await (services.chainRead?.(q) ?? services.chain('read', q)));
  const hashOf = (hash: string | null) => (hash === null ? null : blockHash(hash));
  return {
    getHeader: async (height, hash, commit) =>
      read({ kind: 'header', by: blockRef(height, hashOf(hash), commit) }),
    getBlock: async (height, hash, commit) =>
      read({ kind: 'block', by: blockRef(height, hashOf(hash), commit) }),
    getBlockWith: async (height, hash, how) =>
      read({ kind: 'block', by: blockRef(height, hashOf(hash), null), ...how }),
    getBlocks: async (start, end, hash) => {
      if (start !== null && (end === null || start > end))
        fail({ kind: 'Argument', message: 'Start_height must be lower or equal than end_height' });
      hashOf(hash); // checked although unused, as Epic does
      if (start === null || end === null)
        return fail({ kind: 'Argument', message: 'Start_height or end_height is not valid' });
      if (end - start + 1n > MAX_BLOCKS_PER_CALL)
        fail({
          kind: 'Argument',
          message: `at most ${MAX_BLOCKS_PER_CALL} blocks per call: asked for ${end - start + 1n}`,
        });
      return read({ kind: 'blocks', start, end });
    },
    getKernel: async (excess, min, max) => {
      const bytes = epicHex(excess);
      if (bytes === null) return fail({ kind: 'RequestError', message: 'invalid excess hex' });
      if (bytes.length !== COMMIT_SIZE)
        return fail({ kind: 'RequestError', message: 'invalid excess length' });
      return read({ kind: 'kernel', excess: bytes, minHeight: min, maxHeight: max });
    },
    lastKernels: async (n) => {
      try {
        return await read({ kind: 'lastKernels', n });
      } catch (e) {
        if (e instanceof RpcFailure) fail({ kind: 'Argument', message: 'Could not get kernels' });
        throw e;
      }
    },
    getOutputs: async (commits, start, end, includeProof, includeMerkleProof) => {
      for (const c of commits ?? [])
        if (c.length !== COMMIT_HEX_LENGTH)
          fail({ kind: 'RequestError', message: `invalid commit length for ${c}` });
      // Malformed ones are skipped like unknown ones.
      const parsed = (commits ?? []).flatMap((c) => {
        const b = epicHex(c);
        return b === null ? [] : [fixed(b, COMMIT_SIZE)];
      });
      const heights = start !== null && end !== null ? { start, end } : null;
      // The same cap as get_blocks: each block is read whole (Epic has none).
      if (heights !== null && heights.end - heights.start + 1n > MAX_BLOCKS_PER_CALL)
        fail({
          kind: 'Argument',
          message: `at most ${MAX_BLOCKS_PER_CALL} blocks per call: asked for ${heights.end - heights.start + 1n}`,
        });
      return read({ kind: 'outputs', commits: parsed, heights, includeProof, includeMerkleProof });
    },
    unspentOutputs: async (start, end, max, includeProof) =>
      read({ kind: 'unspentOutputs', start, end, max, includeProof }),
    pmmrIndices: async (start, end) => read({ kind: 'pmmrIndices', start, end }),
    txhashsetRoots: async () => read({ kind: 'roots' }),
    lastLeafHashes: async (mmr, n) => read({ kind: 'lastLeafHashes', mmr, n }),
    currentMerkleProof: async (commit) => {
      const bytes = epicHex(commit);
      if (bytes === null)
        return fail({ kind: 'Argument', message: `Not a valid commitment: ${commit}` });
      return read({ kind: 'currentMerkleProof', commit: fixed(bytes, COMMIT_SIZE) });
    },
  };
}
