// Conformance rows of the `/v1` routes and the route index (node-api reference §6, §14) over the
// chain of test/e2e/chain_reads_chain.ts and the peers of conformance_owner.ts.
import { toHex } from '../../core/bytes.js';
import { stringifyJson } from '../../core/json/stringify.js';
import type { JsonValue } from '../../core/json/value.js';
import { compactBlockPrintable } from '../../core/serde/printable_block.js';
import { outputListing } from '../../core/serde/printable_output.js';
import type { Block } from '../../core/types/block.js';
import type { Output } from '../../core/types/transaction.js';
import { ROUTE_INDEX } from '../../gateway/routes.js';
import {
  blocks,
  commitOf,
  expectedOutput,
  hashOf,
  isSpent,
  outputPositions,
  spentTx,
} from '../e2e/chain_reads_chain.js';
import { headerOf } from './conformance_foreign.js';
import { KNOWN, KNOWN_PEER, UNKNOWN, V1_BANNABLE } from './conformance_owner.js';
import { type Row, v1Pretty, v1Row } from './conformance_rows.js';

const block = (h: number) => blocks[h] as Block;
const ok = (path: string, v: JsonValue, ref = '§6') => v1Row('GET', path, 200, v1Pretty(v), ref);
const bad = (path: string, status: number, text: string, ref = '§6') =>
  v1Row('GET', path, status, text, ref);
const never = (
  path: string,
  status: number,
  text: string,
  why: string,
  verb: 'GET' | 'POST' = 'GET',
) => v1Row(verb, path, status, text, '§6', { unreachable: why, success: false });

export function indexRows(): Row[] {
  const index = v1Pretty([...ROUTE_INDEX]);
  return [
    ok('/v1/', [...ROUTE_INDEX]),
    v1Row('GET', '/', 200, index, '§14 (spec: also at /)', { surface: 'index', anonymous: true }),
    v1Row('GET', '/v2/', 200, index, '§14 (spec: also at /v2/)', {
      surface: 'index',
      anonymous: true,
    }),
    v1Row('OPTIONS', '/v1/pool', 200, '{}', '§14 (spec: OPTIONS 200 on /v1)', {
      anonymous: true,
    }),
  ];
}

/** Head-state routes; `tip` and `status` are the payloads as /v1 prints them. */
export function headRows(tip: JsonValue, status: JsonValue, version: JsonValue): Row[] {
  const headGone = 'the head is in memory once the chain actor has started';
  return [
    ok('/v1/chain', tip),
    never('/v1/chain', 500, "can't get head: …", headGone),
    ok('/v1/status', status),
    never('/v1/status', 500, "can't get head: …", headGone),
    ok('/v1/version', version),
    // Ours answers the payload of validate_chain, `null` (Epic: the text `{}`).
    v1Row('GET', '/v1/chain/validate', 200, 'null', '§6 (ours: null as validate_chain; Epic {})'),
    never(
      '/v1/chain/validate',
      500,
      'validate failed: …',
      'a chain the node accepted block by block validates',
    ),
  ];
}

function blockRows(): Row[] {
  const b4 = block(4);
  const compact4 = compactBlockPrintable(
    b4.header,
    hashOf(4),
    b4.body.outputs.map((o) => expectedOutput(o, false, true)),
    b4.body.kernels,
    [],
  );
  const junkHash = `g${'ab'.repeat(32)}`;
  return [
    ok('/v1/blocks/4?compact', compact4),
    bad('/v1/blocks/77', 400, 'failed to parse input: Not found.'),
    bad(`/v1/blocks/${'ab'.repeat(32)}`, 404, ''),
    bad('/v1/blocks/5?foo', 400, 'unsupported query parameter: foo'),
    bad('/v1/blocks/zz', 400, 'failed to parse input: Bad arguments: Not a valid hash or height.'),
    bad(
      `/v1/blocks/${junkHash}`,
      400,
      'failed to parse input: Bad arguments: invalid input: invalid digit found in string',
    ),
    ok('/v1/headers/2', headerOf(2)),
    bad('/v1/headers/77', 404, ''),
    bad('/v1/headers/xyz', 400, 'Not a valid hash or height.'),
    bad(`/v1/headers/${junkHash}`, 400, 'invalid input: invalid digit found in string'),
  ];
}

function kernelAndOutputRows(): Row[] {
  const k = spentTx.body.kernels[0];
  const excess = toHex(k?.excess ?? new Uint8Array());
  const cb4 = block(4).body.outputs[0] as Output;
  const txOut = spentTx.body.outputs[0] as Output;
  return [
    ok(`/v1/chain/kernels/${excess}?min_height=6`, null),
    bad(`/v1/chain/kernels/${excess}?min_height=x`, 400, 'invalid minimum height'),
    bad(`/v1/chain/kernels/${excess}?max_height=-1`, 400, 'invalid maximum height'),
    bad('/v1/chain/kernels/0g', 400, 'invalid excess hex'),
    bad('/v1/chain/kernels/08', 400, 'invalid excess length'),
    ok(`/v1/chain/outputs/byids?id=${commitOf(cb4)}`, [expectedOutput(cb4, false, false)]),
    ok(`/v1/chain/outputs/byheight?start_height=4&end_height=5&id=${commitOf(txOut)}&include_rp`, [
      expectedOutput(txOut, true, true),
    ]),
    bad('/v1/chain/outputs/byids', 400, 'no query string'),
    bad('/v1/chain/outputs/byheight', 400, 'no query string'),
    bad(
      '/v1/chain/outputs/byheight?start_height=x',
      400,
      'invalid value of parameter start_height',
    ),
    bad('/v1/chain/outputs/byheight?end_height=1.5', 400, 'invalid value of parameter end_height'),
    bad('/v1/chain/outputs/other?x=1', 400, ''),
  ];
}

function txhashsetRows(): Row[] {
  const head = block(6).header;
  const unspent = outputPositions()
    .filter((l) => !isSpent(l.output) && l.pos >= 3n)
    .slice(0, 2);
  const sizeAt = (h: number) => block(h).header.outputMmrSize;
  return [
    ok('/v1/txhashset/roots', {
      output_root_hash: toHex(head.outputRoot),
      range_proof_root_hash: toHex(head.rangeProofRoot),
      kernel_root_hash: toHex(head.kernelRoot),
    }),
    never(
      '/v1/txhashset/roots',
      500,
      'failed to read roots from txhashset: …',
      'the roots of a healthy txhashset are readable',
    ),
    ok('/v1/txhashset/lastoutputs?n=0', []),
    ok('/v1/txhashset/lastrangeproofs?n=0', []),
    ok('/v1/txhashset/lastkernels?n=0', []),
    ok(
      '/v1/txhashset/outputs?start_index=3&max=2',
      outputListing(
        head.outputMmrSize,
        unspent[1]?.pos ?? 0n,
        unspent.map((l) => expectedOutput(l.output, true, false)),
      ),
    ),
    never(
      '/v1/txhashset/outputs',
      404,
      '',
      'reading the output MMR of a healthy chain does not fail',
    ),
    ok(
      '/v1/txhashset/heightstopmmr?start_height=1&end_height=3',
      outputListing(sizeAt(3), sizeAt(0) + 1n, []),
    ),
    bad('/v1/txhashset/heightstopmmr?start_height=1&end_height=99', 404, ''),
    bad('/v1/txhashset/merkleproof', 404, '', '§6 (Epic crashes; ours 404)'),
    bad(`/v1/txhashset/merkleproof?id=${'08'.repeat(33)}`, 404, ''),
    bad('/v1/txhashset/merkleproof?id=xyz', 400, 'Not a valid commitment: xyz'),
    bad('/v1/txhashset/nothing', 400, ''),
  ];
}

/** The peer routes that change nothing. */
export function peerReadRows(all: JsonValue): Row[] {
  return [
    ok('/v1/peers/all', all),
    v1Row('GET', '/v1/peers/connected', 200, '[]', '§6'),
    v1Row('GET', '/v1/peers/onion_addresses', 200, '{"onion_addresses":[]}', '§6'),
    v1Row(
      'GET',
      `/v1/peers/${KNOWN}`,
      200,
      stringifyJson([KNOWN_PEER]),
      '§6, README (one-element array)',
    ),
    bad(`/v1/peers/${UNKNOWN.split(':')[0]}`, 404, 'peer not found'),
    bad('/v1/peers/nonsense', 400, 'peer address unrecognized: /v1/peers/nonsense'),
    v1Row('POST', '/v1/peers/all', 404, '', '§1.2 (verb not served)'),
    // Epic and ours: no connected peer, so nothing to ask for the kernels.
    v1Row(
      'POST',
      '/v1/kerneldownload',
      500,
      'requesting kernel data from peer failed (no peers)',
      '§6',
    ),
    v1Row(
      'GET',
      '/v1/kerneldownload',
      500,
      'requesting kernel data from peer failed (no peers)',
      '§14 (spec: GET too)',
    ),
    never(
      '/v1/kerneldownload',
      200,
      '{}',
      'needs a connected peer and a P2P layer to send the request over',
      'POST',
    ),
  ];
}

/** Ban and unban through /v1, in this order. */
export function peerBanRows(): Row[] {
  const ip = V1_BANNABLE.split(':')[0] as string;
  const post = (path: string, status: number, text: string) =>
    v1Row('POST', path, status, text, '§6');
  return [
    post(
      `/v1/peers/${UNKNOWN}/ban`,
      500,
      `ban failed: Store(NotFoundErr("Peer at address: ${UNKNOWN}"))`,
    ),
    post(`/v1/peers/${ip}/ban`, 500, 'ban failed: PeerNotFound'),
    post(`/v1/peers/${ip}/unban`, 200, 'null'),
    post(`/v1/peers/${ip}/unban`, 500, 'unban failed: PeerNotBanned'),
    post(`/v1/peers/${ip}/nope`, 400, 'invalid command'),
    post('/v1/peers/xyz/ban', 400, 'invalid peer address: /v1/peers/xyz/ban'),
    post(`/v1/peers/${ip}`, 400, `invalid peer address: /v1/peers/${ip}`),
    never(
      `/v1/peers/${ip}/ban`,
      200,
      'null',
      'Ok needs a connected peer: test/e2e/p2p_bans.test.ts',
      'POST',
    ),
    never(
      '/v1/peers/x/ban',
      400,
      'invalid url',
      'a /v1/peers/** path always has the two segments Epic reads',
      'POST',
    ),
  ];
}

export function chainRows(): Row[] {
  return [...blockRows(), ...kernelAndOutputRows(), ...txhashsetRows()];
}

/** Rows that may change the chain's state: run last. */
export function compactRows(): Row[] {
  return [
    v1Row('POST', '/v1/chain/compact', 200, 'null', '§6 (ours: null as compact_chain; Epic {})'),
    v1Row('POST', '/v1/chain/compact', 500, 'compact failed: …', '§6', {
      unreachable: 'compaction of a healthy store does not fail',
      success: false,
    }),
  ];
}
