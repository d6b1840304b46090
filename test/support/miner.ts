// A mining client of the three-step HTTP flow, as a pool or test miner would use it against a
// node on the automated-testing chain with `pow_policy = { cuckatoo = 100 }`: template →
// coinbase (built here with our keychain, as a wallet's build_coinbase would) → finalize →
// solve the Cuckatoo graph → block. The block is returned, not submitted, so tests can
// tamper with it first.
import assert from 'node:assert/strict';
import { buildBlockBody, type RewardParts } from '../../core/chain/block_build.js';
import { CHAIN_PARAMS } from '../../core/chain_type.js';
import { achievedDifficulty } from '../../core/consensus/difficulty.js';
import { totalFees } from '../../core/crypto/kernel.js';
import { parseJson } from '../../core/json/parse.js';
import { stringifyJson } from '../../core/json/stringify.js';
import type { JsonValue } from '../../core/json/value.js';
import { mineCuckatoo } from '../../core/pow/solver.js';
import { prePow } from '../../core/ser/header.js';
import { blockToJson, headerFromJson } from '../../core/serde/block.js';
import { difficultyFromJson } from '../../core/serde/pow.js';
import { kernelToJson, outputToJson, transactionFromJson } from '../../core/serde/transaction.js';
import type { Block, BlockHeader } from '../../core/types/block.js';
import { AUTO_REWARD, autoCoinbase, makeCoinbase } from './coinbases.js';
import { standInCoinbase, withStandInProof } from './stand_ins.js';

export const AUTO = CHAIN_PARAMS.automated;

export interface RpcReply {
  readonly status: number;
  readonly body: {
    readonly result?: { Ok?: JsonValue; Err?: JsonValue };
    readonly error?: JsonValue;
  };
}

export async function foreignRpc(
  url: string,
  method: string,
  params: JsonValue[],
): Promise<RpcReply> {
  const r = await fetch(`${url}/v2/foreign`, {
    method: 'POST',
    body: stringifyJson({ jsonrpc: '2.0', method, params, id: 1 }),
  });
  return { status: r.status, body: parseJson(await r.text()) as RpcReply['body'] };
}

export async function foreignOk(
  url: string,
  method: string,
  params: JsonValue[],
): Promise<JsonValue> {
  const reply = await foreignRpc(url, method, params);
  assert.equal(reply.status, 200);
  const ok = reply.body.result?.Ok;
  assert.ok(ok !== undefined, `${method}: ${stringifyJson(reply.body as JsonValue)}`);
  return ok;
}

/** get_tip's answer as the node prints it (the whole object, so tests may compare it whole). */
export interface ApiTip {
  readonly height: number;
  readonly last_block_pushed: string;
  readonly prev_block_to_last: string;
  readonly total_difficulty: Readonly<Record<string, number>>;
}

export async function apiTip(url: string): Promise<ApiTip> {
  return (await foreignOk(url, 'get_tip', [])) as unknown as ApiTip;
}

/** Finds a nonce whose 4-cycle on the 9-bit graph reaches the header's target. */
export function solve(header: BlockHeader, target: bigint): BlockHeader {
  const edgeBits = AUTO.minEdgeBits;
  let found: BlockHeader | null = null;
  const mined = mineCuckatoo(prePow(header, AUTO), edgeBits, AUTO.proofSize, {
    startNonce: header.pow.nonce,
    maxTries: 100_000,
    accept: (nonces, work) => {
      const nonce = new DataView(work.buffer, work.byteOffset).getBigUint64(work.length - 8);
      const proof = { kind: 'Cuckoo', edgeBits, nonces: [...nonces] } as const;
      const candidate = { ...header, pow: { ...header.pow, nonce, proof } };
      if (achievedDifficulty(AUTO, header.height, candidate.pow) < target) return false;
      found = candidate;
      return true;
    },
  });
  assert.ok(mined !== null && found !== null, 'no solution within 100,000 graphs');
  return found;
}

/** The two calls a miner makes before solving: step 1, and step 2 with a coinbase. */
export interface TemplateSource {
  template(): Promise<JsonValue>;
  finalize(coinbase: RewardParts): Promise<JsonValue>;
}

export function httpTemplates(url: string): TemplateSource {
  return {
    template: () => foreignOk(url, 'get_block_template', []),
    finalize: (cb) =>
      foreignOk(url, 'finalize_block_template', [
        { output: outputToJson(cb.output), kernel: kernelToJson(cb.kernel) },
      ]),
  };
}

export interface MineOptions {
  /** Key path m/2/0/keyIndex of the coinbase (default: the height); 1…160 are precomputed. */
  readonly keyIndex?: number;
  /** Coinbase value (default: the reward plus the template transactions' fees). */
  readonly value?: bigint;
  /**
   * Keep the template's timestamp (parent + 60 s) instead of the finalized one (the clock), so
   * difficulty stays at the floor however fast a test mines: a long chain mined in seconds
   * would otherwise raise it block after block.
   */
  readonly templateTime?: boolean;
  /**
   * Neither solve nor prove (stand_ins.ts): a stand-in proof of work and coinbase range proof,
   * for a chain whose verifier accepts them (local_chain's `standIns`).
   */
  readonly standIns?: boolean;
}

/** Steps 1–2 and the solving: a valid next block (unless `value` says otherwise). */
export async function mineWith(source: TemplateSource, opts: MineOptions = {}): Promise<Block> {
  const template = (await source.template()) as { [k: string]: JsonValue };
  const height = BigInt(template.height as number);
  const index = opts.keyIndex ?? Number(height);
  // The reward plus the fees of the transactions the template will mine.
  const fees = (template.transactions as JsonValue[])
    .map((t, i) => transactionFromJson(t, `transactions[${i}]`))
    .reduce((sum, tx) => sum + totalFees(tx.body.kernels), 0n);
  const value = opts.value ?? AUTO_REWARD + fees;
  const coinbase =
    opts.standIns === true
      ? standInCoinbase(index, value)
      : value === AUTO_REWARD
        ? autoCoinbase(index)
        : makeCoinbase(index, value);
  const finalized = (await source.finalize(coinbase)) as { [k: string]: JsonValue };
  const finalizedHeader = headerFromJson(finalized.header, 'header', AUTO);
  const header =
    opts.templateTime === true
      ? {
          ...finalizedHeader,
          timestamp: headerFromJson(template.header, 'template header', AUTO).timestamp,
        }
      : finalizedHeader;
  const txs = (finalized.transactions as JsonValue[]).map((t, i) =>
    transactionFromJson(t, `transactions[${i}]`),
  );
  const target = difficultyFromJson(template.block_difficulty, 'block_difficulty');
  // Automated-testing Cuckoo proofs (9 edge bits) are booked as Cuckaroo.
  const solved =
    opts.standIns === true
      ? withStandInProof(header, AUTO.minEdgeBits)
      : solve(header, target.cuckaroo ?? 0n);
  const { body } = buildBlockBody(txs, [coinbase]);
  return { header: solved, body };
}

export function mineBlock(url: string, opts: MineOptions = {}): Promise<Block> {
  return mineWith(httpTemplates(url), opts);
}

export async function submit(url: string, block: Block): Promise<RpcReply> {
  return foreignRpc(url, 'submit_block', [blockToJson(block)]);
}

/** One owner-API call with the owner credential `auth`; the reply's text (HTTP 200 asserted). */
export async function ownerText(
  url: string,
  auth: string,
  method: string,
  params: unknown,
): Promise<string> {
  const r = await fetch(`${url}/v2/owner`, {
    method: 'POST',
    headers: { authorization: auth },
    body: JSON.stringify({ jsonrpc: '2.0', method, params, id: 1 }),
  });
  assert.equal(r.status, 200);
  return r.text();
}
