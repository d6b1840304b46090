// fast-check arbitraries for every core type with a binary encoding. Each one is parameterised
// by the chain parameters, because the Cuckoo proof size, the header version fork height and the
// block weight cap all change what a valid value looks like on the wire.
//
// Every arbitrary yields values the decoders accept back unchanged: lists are sorted strictly by
// the hash of each item's hash-mode bytes, weights stay within the caps, maps have their keys in
// type-id order (the order the decoders rebuild them in).
import fc from 'fast-check';
import { compareBytes, toHex } from '../../core/bytes.js';
import type { ChainParams } from '../../core/chain_type.js';
import { blake2b256 } from '../../core/hash/blake2b.js';
import { hashOf } from '../../core/ser/codec.js';
import { MAX_TIMESTAMP, MIN_TIMESTAMP } from '../../core/ser/header.js';
import { headerVersionAt } from '../../core/ser/params.js';
import {
  bodyWeight,
  COINBASE_WEIGHT,
  writeInput,
  writeKernel,
  writeOutput,
} from '../../core/ser/transaction.js';
import type {
  Block,
  BlockHeader,
  BlockSums,
  CompactBlock,
  CompactBlockBody,
} from '../../core/types/block.js';
import type { Difficulty, Policy, PowAlgo, Proof, ProofOfWork } from '../../core/types/pow.js';
import { POW_ALGOS } from '../../core/types/pow.js';
import type {
  Input,
  KernelFeatures,
  Output,
  OutputFeatures,
  Transaction,
  TransactionBody,
  TxKernel,
} from '../../core/types/transaction.js';
import {
  BLINDING_SIZE,
  COMMITMENT_SIZE,
  RANGE_PROOF_SIZE,
  SHORT_ID_SIZE,
  SIGNATURE_SIZE,
} from '../../core/types/transaction.js';

export const U64_MAX = (1n << 64n) - 1n;
export const U32_MAX = 0xffff_ffff;
/** Lists stay short so that a few hundred runs per property finish quickly. */
export const MAX_LIST = 4;

// ---------------------------------------------------------------------------------------------
// Scalars and byte strings

/** Any u64, with the extremes and the powers of two around 2^32 forced in now and then. */
export function arbU64(): fc.Arbitrary<bigint> {
  return fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom(0n, 1n, U64_MAX, U64_MAX - 1n, 1n << 32n, 1n << 63n) },
    { weight: 4, arbitrary: fc.bigInt({ min: 0n, max: U64_MAX }) },
  );
}

/** Any u32, the extremes forced in now and then. */
export function arbU32(): fc.Arbitrary<number> {
  return fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom(0, 1, U32_MAX, 0x8000_0000) },
    { weight: 4, arbitrary: fc.integer({ min: 0, max: U32_MAX }) },
  );
}

export function arbU8(): fc.Arbitrary<number> {
  return fc.integer({ min: 0, max: 255 });
}

export function arbBytes(n: number): fc.Arbitrary<Uint8Array> {
  return fc.uint8Array({ minLength: n, maxLength: n });
}

/**
 * `fc.record` with ordinary objects: fast-check builds null-prototype objects by default, which
 * `assert.deepStrictEqual` never finds equal to the decoders' plain objects.
 */
export function rec<T>(model: { [K in keyof T]: fc.Arbitrary<T[K]> }): fc.Arbitrary<T> {
  return fc.record(model, { noNullPrototype: true }) as unknown as fc.Arbitrary<T>;
}

// ---------------------------------------------------------------------------------------------
// Sorting helpers

/**
 * The items sorted by `hash` (byte-lexicographic), items with an equal hash dropped: the shape
 * `verifySortedAndUnique` accepts.
 */
export function sortUniqueBy<T>(items: readonly T[], hash: (x: T) => Uint8Array): T[] {
  const keyed = items.map((x) => ({ x, h: hash(x) }));
  keyed.sort((a, b) => compareBytes(a.h, b.h));
  const out: T[] = [];
  let prev: Uint8Array | undefined;
  for (const k of keyed) {
    if (prev !== undefined && compareBytes(prev, k.h) === 0) continue;
    out.push(k.x);
    prev = k.h;
  }
  return out;
}

export const inputHash = (x: Input, p: ChainParams): Uint8Array => hashOf(writeInput, x, p);
export const outputHash = (x: Output, p: ChainParams): Uint8Array => hashOf(writeOutput, x, p);
export const kernelHash = (x: TxKernel, p: ChainParams): Uint8Array => hashOf(writeKernel, x, p);
export const shortIdHash = (id: Uint8Array): Uint8Array => blake2b256(id);

// ---------------------------------------------------------------------------------------------
// Transaction types

export function arbOutputFeatures(): fc.Arbitrary<OutputFeatures> {
  return fc.constantFrom<OutputFeatures>('Plain', 'Coinbase');
}

export function arbInput(
  _params: ChainParams,
  features: fc.Arbitrary<OutputFeatures> = arbOutputFeatures(),
): fc.Arbitrary<Input> {
  return rec({ features, commit: arbBytes(COMMITMENT_SIZE) });
}

export function arbOutput(
  _params: ChainParams,
  features: fc.Arbitrary<OutputFeatures> = arbOutputFeatures(),
): fc.Arbitrary<Output> {
  return rec({
    features,
    commit: arbBytes(COMMITMENT_SIZE),
    proof: arbBytes(RANGE_PROOF_SIZE),
  });
}

export type KernelKind = KernelFeatures['kind'];

export function arbKernelFeatures(
  kinds: readonly KernelKind[] = ['Plain', 'Coinbase', 'HeightLocked'],
): fc.Arbitrary<KernelFeatures> {
  const all: Record<KernelKind, fc.Arbitrary<KernelFeatures>> = {
    Plain: arbU64().map((fee): KernelFeatures => ({ kind: 'Plain', fee })),
    Coinbase: fc.constant<KernelFeatures>({ kind: 'Coinbase' }),
    HeightLocked: fc
      .tuple(arbU64(), arbU64())
      .map(([fee, lockHeight]): KernelFeatures => ({ kind: 'HeightLocked', fee, lockHeight })),
  };
  return fc.oneof(...kinds.map((k) => all[k]));
}

export function arbKernel(
  _params: ChainParams,
  kinds?: readonly KernelKind[],
): fc.Arbitrary<TxKernel> {
  return rec({
    features: arbKernelFeatures(kinds),
    excess: arbBytes(COMMITMENT_SIZE),
    excessSig: arbBytes(SIGNATURE_SIZE),
  });
}

export interface BodyOptions {
  /** Weight cap (inputs*1 + outputs*21 + kernels*3). */
  readonly maxWeight: number;
  /** Whether Coinbase outputs and kernels may appear. */
  readonly coinbase: boolean;
  /** Drop inputs that spend an output of the same body. */
  readonly noCutThrough: boolean;
}

/** Drops items from the back (kernels, then outputs, then inputs) until the weight fits. */
function fitWeight(b: TransactionBody, maxWeight: number): TransactionBody {
  const inputs = [...b.inputs];
  const outputs = [...b.outputs];
  const kernels = [...b.kernels];
  while (bodyWeight(inputs.length, outputs.length, kernels.length) > BigInt(maxWeight)) {
    if (kernels.length > 0) kernels.pop();
    else if (outputs.length > 0) outputs.pop();
    else inputs.pop();
  }
  return { inputs, outputs, kernels };
}

export function arbBody(params: ChainParams, opts: BodyOptions): fc.Arbitrary<TransactionBody> {
  const outFeatures = opts.coinbase ? arbOutputFeatures() : fc.constant<OutputFeatures>('Plain');
  const kernKinds: KernelKind[] = opts.coinbase
    ? ['Plain', 'Coinbase', 'HeightLocked']
    : ['Plain', 'HeightLocked'];
  return rec({
    inputs: fc.array(arbInput(params), { maxLength: MAX_LIST }),
    outputs: fc.array(arbOutput(params, outFeatures), { maxLength: MAX_LIST }),
    kernels: fc.array(arbKernel(params, kernKinds), { maxLength: MAX_LIST }),
    // Sometimes make an input share (features, commit) with an output: exercises cut-through.
    spend: fc.oneof(
      { weight: 3, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.nat(MAX_LIST - 1) },
    ),
  }).map(({ inputs, outputs, kernels, spend }) => {
    const ins = [...inputs];
    const spent = spend === null ? undefined : outputs[spend % Math.max(outputs.length, 1)];
    if (spent !== undefined) ins.push({ features: spent.features, commit: spent.commit });
    const outs = sortUniqueBy(outputs, (x) => outputHash(x, params));
    let sortedIns = sortUniqueBy(ins, (x) => inputHash(x, params));
    if (opts.noCutThrough) {
      const outHashes = new Set(outs.map((x) => toHex(outputHash(x, params))));
      sortedIns = sortedIns.filter((x) => !outHashes.has(toHex(inputHash(x, params))));
    }
    const kerns = sortUniqueBy(kernels, (x) => kernelHash(x, params));
    return fitWeight({ inputs: sortedIns, outputs: outs, kernels: kerns }, opts.maxWeight);
  });
}

/** A body as a block carries it: coinbase parts allowed, weight within the block cap. */
export function arbBlockBody(params: ChainParams): fc.Arbitrary<TransactionBody> {
  return arbBody(params, { maxWeight: params.maxBlockWeight, coinbase: true, noCutThrough: false });
}

export function arbTransaction(params: ChainParams): fc.Arbitrary<Transaction> {
  return rec({
    offset: arbBytes(BLINDING_SIZE),
    body: arbBody(params, {
      maxWeight: params.maxBlockWeight - COINBASE_WEIGHT,
      coinbase: false,
      noCutThrough: true,
    }),
  });
}

// ---------------------------------------------------------------------------------------------
// Proof of work

/** A subset of the four algorithms, keys in type-id order (the order the decoders build). */
function arbAlgoMap<V>(value: fc.Arbitrary<V>): fc.Arbitrary<{ [A in PowAlgo]?: V }> {
  return fc
    .tuple(fc.subarray([...POW_ALGOS]), fc.array(value, { minLength: 4, maxLength: 4 }))
    .map(([algos, values]) => {
      const out: { [A in PowAlgo]?: V } = {};
      for (const a of POW_ALGOS) {
        if (algos.includes(a)) out[a] = values[POW_ALGOS.indexOf(a)] as V;
      }
      return out;
    });
}

export function arbDifficulty(_params: ChainParams): fc.Arbitrary<Difficulty> {
  return arbAlgoMap(arbU64());
}

export function arbPolicy(_params: ChainParams): fc.Arbitrary<Policy> {
  return arbAlgoMap(arbU32());
}

export function arbCuckooProof(params: ChainParams, edgeBits?: number): fc.Arbitrary<Proof> {
  const eb = edgeBits === undefined ? fc.integer({ min: 1, max: 64 }) : fc.constant(edgeBits);
  return eb.chain((bits) => {
    const max = (1n << BigInt(bits)) - 1n;
    const nonce = fc.oneof(
      { weight: 1, arbitrary: fc.constantFrom(0n, max) },
      { weight: 4, arbitrary: fc.bigInt({ min: 0n, max }) },
    );
    return fc
      .array(nonce, { minLength: params.proofSize, maxLength: params.proofSize })
      .map((nonces): Proof => ({ kind: 'Cuckoo', edgeBits: bits, nonces }));
  });
}

export function arbMd5String(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 100 }),
    fc.string({ unit: 'binary', maxLength: 100 }),
  );
}

export function arbProof(params: ChainParams): fc.Arbitrary<Proof> {
  return fc.oneof(
    arbCuckooProof(params),
    fc
      .tuple(arbU8(), arbMd5String())
      .map(([edgeBits, proof]): Proof => ({ kind: 'MD5', edgeBits, proof })),
    arbBytes(32).map((hash): Proof => ({ kind: 'RandomX', hash })),
    arbBytes(32).map((mix): Proof => ({ kind: 'ProgPow', mix })),
  );
}

export function arbProofOfWork(params: ChainParams): fc.Arbitrary<ProofOfWork> {
  return rec({
    totalDifficulty: arbDifficulty(params),
    secondaryScaling: arbU32(),
    nonce: arbU64(),
    proof: arbProof(params),
    seed: arbBytes(32),
  });
}

// ---------------------------------------------------------------------------------------------
// Headers and blocks

/** Any u64 height, often near 0 or the version-7 fork so both header versions show up. */
export function arbHeight(params: ChainParams): fc.Arbitrary<bigint> {
  const fork = params.headerV7Height;
  return fc.oneof(
    fc.bigInt({ min: 0n, max: 20n }),
    fc.bigInt({ min: fork > 3n ? fork - 3n : 0n, max: fork + 3n }),
    arbU64(),
  );
}

export function arbTimestamp(): fc.Arbitrary<number> {
  return fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom(MIN_TIMESTAMP, MAX_TIMESTAMP, 0, -1) },
    { weight: 2, arbitrary: fc.integer({ min: 1_500_000_000, max: 2_000_000_000 }) },
    { weight: 2, arbitrary: fc.integer({ min: MIN_TIMESTAMP, max: MAX_TIMESTAMP }) },
  );
}

export function arbHeader(params: ChainParams): fc.Arbitrary<BlockHeader> {
  return rec({
    height: arbHeight(params),
    timestamp: arbTimestamp(),
    prevHash: arbBytes(32),
    prevRoot: arbBytes(32),
    outputRoot: arbBytes(32),
    rangeProofRoot: arbBytes(32),
    kernelRoot: arbBytes(32),
    totalKernelOffset: arbBytes(BLINDING_SIZE),
    outputMmrSize: arbU64(),
    kernelMmrSize: arbU64(),
    pow: arbProofOfWork(params),
    policy: arbU8(),
    bottles: arbPolicy(params),
  }).map(
    (h): BlockHeader => ({
      // Same key order as the decoder's result, so deepStrictEqual reads naturally.
      version: headerVersionAt(params, h.height),
      height: h.height,
      timestamp: h.timestamp,
      prevHash: h.prevHash,
      prevRoot: h.prevRoot,
      outputRoot: h.outputRoot,
      rangeProofRoot: h.rangeProofRoot,
      kernelRoot: h.kernelRoot,
      totalKernelOffset: h.totalKernelOffset,
      outputMmrSize: h.outputMmrSize,
      kernelMmrSize: h.kernelMmrSize,
      pow: h.pow,
      policy: h.policy,
      bottles: h.bottles,
    }),
  );
}

export function arbBlock(params: ChainParams): fc.Arbitrary<Block> {
  return rec({ header: arbHeader(params), body: arbBlockBody(params) });
}

export function arbShortId(): fc.Arbitrary<Uint8Array> {
  return arbBytes(SHORT_ID_SIZE);
}

export function arbCompactBody(params: ChainParams): fc.Arbitrary<CompactBlockBody> {
  return rec({
    outFull: fc.array(arbOutput(params, fc.constant<OutputFeatures>('Coinbase')), {
      maxLength: MAX_LIST,
    }),
    kernFull: fc.array(arbKernel(params, ['Coinbase']), { maxLength: MAX_LIST }),
    kernIds: fc.array(arbShortId(), { maxLength: MAX_LIST }),
  }).map(
    ({ outFull, kernFull, kernIds }): CompactBlockBody => ({
      outFull: sortUniqueBy(outFull, (x) => outputHash(x, params)),
      kernFull: sortUniqueBy(kernFull, (x) => kernelHash(x, params)),
      kernIds: sortUniqueBy(kernIds, shortIdHash),
    }),
  );
}

export function arbCompactBlock(params: ChainParams): fc.Arbitrary<CompactBlock> {
  return rec({ header: arbHeader(params), nonce: arbU64(), body: arbCompactBody(params) });
}

export function arbBlockSums(_params: ChainParams): fc.Arbitrary<BlockSums> {
  return rec({ utxoSum: arbBytes(COMMITMENT_SIZE), kernelSum: arbBytes(COMMITMENT_SIZE) });
}
