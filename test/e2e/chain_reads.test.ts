// The chain reads of /v2/foreign and their /v1 routes against a chain mined on the real node
// (chain_reads_chain.ts). Bodies are compared whole, as text; /v1 bodies are their /v2 twin's
// payload printed in Epic's declaration order. Error rows live in the conformance matrix
// (conformance.test.ts, test/support/conformance_*.ts).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { equalBytes, toHex } from '../../core/bytes.js';
import { parseJson } from '../../core/json/parse.js';
import { stringifyJson } from '../../core/json/stringify.js';
import type { JsonValue } from '../../core/json/value.js';
import { MemBackend } from '../../core/mmr/mem_backend.js';
import { merkleProofFromHex, verifyMerkleProof } from '../../core/mmr/merkle_proof.js';
import { Mmr } from '../../core/mmr/mmr.js';
import { encode } from '../../core/ser/codec.js';
import { writeInput } from '../../core/ser/transaction.js';
import {
  blockPrintable,
  headerPrintable,
  kernelPrintable,
} from '../../core/serde/printable_block.js';
import { locatedKernel, outputListing } from '../../core/serde/printable_output.js';
import { kernelToJson } from '../../core/serde/transaction.js';
import type { Block } from '../../core/types/block.js';
import type { Output } from '../../core/types/transaction.js';
import { AUTO } from '../support/miner.js';
import {
  blocks,
  call,
  commitOf,
  expectedBlock,
  expectedOutput,
  hashOf,
  isSpent,
  merkleProofHex,
  mineTestChain,
  ok,
  outputPositions,
  spentTx,
  stopTestChain,
  text,
  theNode,
  v1,
  v1Ok,
} from './chain_reads_chain.js';

describe('chain reads on /v2/foreign and /v1', { timeout: 240_000 }, () => {
  before(mineTestChain);
  after(stopTestChain);

  it('get_header by height, hash and unspent output commitment', async () => {
    const b3 = blocks[3] as Block;
    const want = ok(headerPrintable(b3.header, hashOf(3)));
    assert.equal(await call('get_header', [3, null, null]), want);
    assert.equal(await call('get_header', [null, toHex(hashOf(3)), null]), want);
    assert.equal(
      await call('get_header', [null, null, commitOf(b3.body.outputs[0] as Output)]),
      want,
    );
    // Height wins over the other two.
    assert.equal(await call('get_header', [3, toHex(hashOf(1)), null]), want);
  });

  it('get_block: spent and unspent outputs, proofs, Merkle proofs for unspent coinbases', async () => {
    assert.equal(await call('get_block', [5, null, null]), ok(expectedBlock(5)));
    assert.equal(await call('get_block', [1, null, null]), ok(expectedBlock(1)));
    assert.equal(await call('get_block', [null, toHex(hashOf(6)), null]), ok(expectedBlock(6)));
  });

  it("get_block's Merkle proofs lead to the output MMR root of the block's header", async () => {
    const root = new Mmr(new MemBackend({ prunable: false }));
    for (const b of blocks.slice(0, 6))
      for (const o of b.body.outputs) root.push(encode(writeInput, o, 2, AUTO, 'hash'));
    const reply = parseJson(await call('get_block', [5, null, null])) as {
      result: {
        Ok: { outputs: { commit: string; merkle_proof: string | null; mmr_index: number }[] };
      };
    };
    const proved = reply.result.Ok.outputs.filter(
      (o): o is { commit: string; merkle_proof: string; mmr_index: number } =>
        o.merkle_proof !== null,
    );
    assert.equal(proved.length, 2); // the miner's and the foundation's coinbase, not the tx output
    for (const o of proved) {
      const output = (blocks[5] as Block).body.outputs.find((x) => commitOf(x) === o.commit);
      assert.ok(output !== undefined);
      const element = encode(writeInput, output, 2, AUTO, 'hash');
      const proof = merkleProofFromHex(o.merkle_proof);
      assert.equal(proof.mmrSize, (blocks[5] as Block).header.outputMmrSize);
      assert.ok(verifyMerkleProof(proof, root.root(), element, BigInt(o.mmr_index)));
      assert.ok(!verifyMerkleProof(proof, root.root(), element, BigInt(o.mmr_index) + 1n));
    }
  });

  it('get_blocks: a range, skipping missing heights; Epic errors; our cap', async () => {
    assert.equal(
      await call('get_blocks', [4, 9, null, null]),
      ok([expectedBlock(4), expectedBlock(5), expectedBlock(6)]),
    );
    assert.equal(
      (parseJson(await call('get_blocks', [1, 1000, null, null])) as { result: { Ok: unknown[] } })
        .result.Ok.length,
      6,
    );
  });

  it('get_kernel and get_last_n_kernels', async () => {
    const b5 = blocks[5] as Block;
    const k = spentTx.body.kernels[0];
    assert.ok(k !== undefined);
    const index = b5.body.kernels.findIndex((x) => equalBytes(x.excess, k.excess));
    // Kernel MMR positions: one leaf per kernel of blocks 0..4, then this block's in order.
    const before = blocks.slice(0, 5).reduce((n, b) => n + b.body.kernels.length, 0);
    const kmmr = new Mmr(new MemBackend({ prunable: false }));
    let pos = 0n;
    for (let i = 0; i <= before + index; i++) pos = kmmr.push(new Uint8Array([i]));
    const want = ok(locatedKernel(k, 5n, pos));
    const excess = toHex(k.excess);
    assert.equal(await call('get_kernel', [excess, null, null]), want);
    assert.equal(await call('get_kernel', [excess, 5, 5]), want);
    assert.equal(await call('get_kernel', [excess, 0, 6]), want);

    const b6 = blocks[6] as Block;
    const lastOf5 = b5.body.kernels[b5.body.kernels.length - 1];
    assert.ok(lastOf5 !== undefined && b6.body.kernels[0] !== undefined);
    assert.equal(
      await call('get_last_n_kernels', [2]),
      ok([kernelToJson(b6.body.kernels[0]), kernelToJson(lastOf5)]),
    );
    const all = blocks
      .flatMap((b) => b.body.kernels)
      .reverse()
      .map(kernelToJson);
    assert.equal(await call('get_last_n_kernels', [1000]), ok(all));
  });

  it('get_outputs by commitments (unknown and spent skipped) and by heights', async () => {
    const [cb6] = (blocks[6] as Block).body.outputs;
    const txOut = spentTx.body.outputs[0];
    const cb1 = (blocks[1] as Block).body.outputs[0];
    assert.ok(cb6 && txOut && cb1);
    assert.equal(
      await call('get_outputs', [
        [commitOf(cb6), commitOf(cb1), '08'.repeat(33), commitOf(txOut)],
        null,
        null,
        true,
        true,
      ]),
      ok([expectedOutput(cb6, true, true), expectedOutput(txOut, true, true)]),
    );
    // Epic's wallet form: no proofs.
    assert.equal(
      await call('get_outputs', [[commitOf(cb6)], null, null, false, false]),
      ok([expectedOutput(cb6, false, false)]),
    );
    const byHeight = [6, 5, 4].flatMap((h) =>
      (blocks[h] as Block).body.outputs.map((o) => expectedOutput(o, false, true)),
    );
    assert.equal(await call('get_outputs', [null, 4, 6, null, true]), ok(byHeight));
    assert.equal(await call('get_outputs', [null, 4, null, null, null]), ok([]));
  });

  it("a wallet's get_outputs (the fast path): the bytes of the named form, every id form", async () => {
    const cb6 = (blocks[6] as Block).body.outputs[0];
    const cb1 = (blocks[1] as Block).body.outputs[0];
    const txOuts = spentTx.body.outputs;
    assert.ok(cb6 && cb1 && txOuts.length > 0);
    const found = [cb6, ...txOuts];
    const asked = [commitOf(cb6), commitOf(cb1), '09'.repeat(33), ...txOuts.map(commitOf)];
    const raw = async (body: string): Promise<string> => {
      const r = await fetch(`${theNode().url}/v2/foreign`, { method: 'POST', body });
      assert.equal(r.status, 200);
      return r.text();
    };
    const list = (cs: string[]) => `[${cs.map((c) => `"${c}"`).join(',')}]`;
    for (const [id, printed] of [
      ['3', 3],
      ['"wallet"', 'wallet'],
      ['null', null],
    ] as const)
      for (const [cs, outs] of [
        [asked, found],
        [
          [...asked, commitOf(cb6)],
          [...found, cb6],
        ],
        [[commitOf(cb1), '08'.repeat(33)], []],
        [[], []],
      ] as const) {
        const positional = await raw(
          `{"jsonrpc":"2.0","method":"get_outputs","params":[${list([...cs])},null,null,false,false],"id":${id}}`,
        );
        const named = await raw(
          `{"jsonrpc":"2.0","method":"get_outputs","params":{"commits":${list([...cs])},"start_height":null,"end_height":null,"include_proof":false,"include_merkle_proof":false},"id":${id}}`,
        );
        const want = text({
          id: printed,
          jsonrpc: '2.0',
          result: { Ok: outs.map((o) => expectedOutput(o, false, false)) },
        });
        assert.equal(positional, want);
        assert.equal(named, want);
      }
    const bare = await raw(
      `{"method":"get_outputs","params":[["${commitOf(cb6)}"],null,null,null,null],"id":1}`,
    );
    assert.equal(bare, text({ id: 1, result: { Ok: [expectedOutput(cb6, false, false)] } }));
  });

  it('get_unspent_outputs walks MMR positions; get_pmmr_indices maps heights to positions', async () => {
    const leaves = outputPositions();
    const unspent = leaves.filter((l) => !isSpent(l.output));
    const size = (blocks[6] as Block).header.outputMmrSize;
    const first3 = unspent.slice(0, 3);
    const last = first3[2];
    assert.ok(last !== undefined);
    assert.equal(
      await call('get_unspent_outputs', [1, null, 3, true]),
      ok(
        outputListing(
          size,
          last.pos,
          first3.map((l) => expectedOutput(l.output, true, false)),
        ),
      ),
    );
    assert.equal(
      await call('get_unspent_outputs', [0, null, 100000, null]),
      ok(
        outputListing(
          size,
          size,
          unspent.map((l) => expectedOutput(l.output, false, false)),
        ),
      ),
    );
    assert.equal(
      await call('get_unspent_outputs', [1, 2, 100, null]),
      ok(
        outputListing(
          2n,
          2n,
          unspent.filter((l) => l.pos <= 2n).map((l) => expectedOutput(l.output, false, false)),
        ),
      ),
    );
    const sizeAt = (h: number) => (blocks[h] as Block).header.outputMmrSize;
    assert.equal(
      await call('get_pmmr_indices', [2, 4]),
      ok(outputListing(sizeAt(4), sizeAt(1) + 1n, [])),
    );
    assert.equal(
      await call('get_pmmr_indices', [0, null]),
      ok(outputListing(sizeAt(6), sizeAt(0) + 1n, [])),
    );
  });

  it('/v1/headers and /v1/blocks equal get_header and get_block', async () => {
    const b3 = blocks[3] as Block;
    const header = v1Ok(headerPrintable(b3.header, hashOf(3)));
    assert.deepEqual(await v1('/v1/headers/3'), header);
    assert.deepEqual(await v1(`/v1/headers/${toHex(hashOf(3))}`), header);
    assert.deepEqual(await v1(`/v1/headers/${commitOf(b3.body.outputs[0] as Output)}`), header);
    assert.deepEqual(await v1('/v1/blocks/5'), v1Ok(expectedBlock(5)));
    assert.deepEqual(
      await v1(`/v1/blocks/${toHex(hashOf(6))}?include_proof`),
      v1Ok(expectedBlock(6)),
    );
    const b6 = blocks[6] as Block;
    const noMerkle = blockPrintable(
      b6,
      hashOf(6),
      b6.body.outputs.map((o) => expectedOutput(o, true, false)),
    );
    assert.deepEqual(await v1('/v1/blocks/6?no_merkle_proof'), v1Ok(noMerkle));
    // Compact: coinbase outputs and kernels in full, the transaction's kernel as a short id
    // keyed by a random nonce (so only its form is known here).
    const b5 = blocks[5] as Block;
    const compact = await v1('/v1/blocks/5?compact');
    assert.equal(compact.status, 200);
    const c = parseJson(compact.text) as { kern_ids: string[] };
    assert.equal(c.kern_ids.length, 1);
    assert.match(c.kern_ids[0] ?? '', /^[0-9a-f]{12}$/);
    const coinbase = (o: Output) => o.features === 'Coinbase';
    assert.deepEqual(
      compact.text,
      stringifyJson(
        {
          header: headerPrintable(b5.header, hashOf(5)),
          out_full: b5.body.outputs.filter(coinbase).map((o) => expectedOutput(o, false, true)),
          kern_full: b5.body.kernels
            .filter((k) => k.features.kind === 'Coinbase')
            .map(kernelPrintable),
          kern_ids: c.kern_ids,
        },
        { pretty: true },
      ),
    );
  });

  it('/v1/chain/kernels: LocatedTxKernel, null when unknown, 400 on bad input', async () => {
    const k = spentTx.body.kernels[0];
    assert.ok(k !== undefined);
    const excess = toHex(k.excess);
    const v2 = parseJson(await call('get_kernel', [excess, null, null])) as {
      result: { Ok: JsonValue };
    };
    const want = v1Ok(v2.result.Ok);
    // /v2 printed sorted keys; /v1 prints tx_kernel, height, mmr_index.
    const got = await v1(`/v1/chain/kernels/${excess}?min_height=0&max_height=100`);
    assert.equal(got.status, 200);
    assert.deepEqual(parseJson(got.text), parseJson(want.text));
    assert.match(got.text, /^\{\n {2}"tx_kernel"/);
  });

  it('/v1/chain/outputs byids and byheight: the OutputPrintable[] of get_outputs', async () => {
    const cb6 = (blocks[6] as Block).body.outputs[0] as Output;
    const txOut = spentTx.body.outputs[0] as Output;
    assert.deepEqual(
      await v1(
        `/v1/chain/outputs/byids?id=${commitOf(cb6)},${'08'.repeat(33)}&id=${commitOf(txOut)}`,
      ),
      v1Ok([expectedOutput(cb6, false, false), expectedOutput(txOut, false, false)]),
    );
    const byHeight = [6, 5].flatMap((h) =>
      (blocks[h] as Block).body.outputs.map((o) => expectedOutput(o, true, true)),
    );
    assert.deepEqual(
      await v1('/v1/chain/outputs/byheight?start_height=5&end_height=6&include_rp'),
      v1Ok(byHeight),
    );
    const txOnly = [expectedOutput(txOut, false, true)];
    assert.deepEqual(
      await v1(`/v1/chain/outputs/byheight?start_height=4&end_height=6&id=${commitOf(txOut)},zz`),
      v1Ok(txOnly),
    );
  });

  it('/v1/txhashset: roots, last leaves, outputs, heightstopmmr, merkleproof', async () => {
    const head = (blocks[6] as Block).header;
    const kernels = blocks
      .flatMap((b) => b.body.kernels)
      .reverse()
      .map(kernelToJson);
    assert.deepEqual(await v1('/v1/txhashset/lastkernels?n=2'), v1Ok(kernels.slice(0, 2)));
    // Leaf hashes (position-indexed) of the newest output and range proof.
    const outs = new Mmr(new MemBackend({ prunable: false }));
    const proofs = new Mmr(new MemBackend({ prunable: false }));
    for (const o of blocks.flatMap((b) => b.body.outputs)) {
      outs.push(encode(writeInput, o, 2, AUTO, 'hash'));
      const framed = Buffer.alloc(8 + o.proof.length);
      framed.writeBigUInt64BE(BigInt(o.proof.length), 0);
      framed.set(o.proof, 8);
      proofs.push(new Uint8Array(framed));
    }
    const lastPos = outputPositions().at(-1)?.pos ?? 0n;
    const leafHash = (m: Mmr) => ({ hash: toHex(m.hash(lastPos) ?? new Uint8Array()) });
    assert.deepEqual(await v1('/v1/txhashset/lastoutputs?n=1'), v1Ok([leafHash(outs)]));
    assert.deepEqual(await v1('/v1/txhashset/lastrangeproofs?n=1'), v1Ok([leafHash(proofs)]));
    const unspent = outputPositions().filter((l) => !isSpent(l.output));
    const size = head.outputMmrSize;
    assert.deepEqual(
      await v1('/v1/txhashset/outputs?start_index=1&max=2'),
      v1Ok(
        outputListing(
          size,
          (unspent[1] as { pos: bigint }).pos,
          unspent.slice(0, 2).map((l) => expectedOutput(l.output, true, false)),
        ),
      ),
    );
    const sizeAt = (h: number) => (blocks[h] as Block).header.outputMmrSize;
    assert.deepEqual(
      await v1('/v1/txhashset/heightstopmmr?start_height=2&end_height=4'),
      v1Ok(outputListing(sizeAt(4), sizeAt(1) + 1n, [])),
    );
    const cb6 = unspent[unspent.length - 1];
    assert.ok(cb6 !== undefined);
    const proof = await v1(`/v1/txhashset/merkleproof?id=${commitOf(cb6.output)}`);
    assert.deepEqual(
      proof,
      v1Ok({
        output_type: 'Coinbase',
        commit: '00'.repeat(33),
        spent: false,
        proof: null,
        proof_hash: '',
        block_height: null,
        merkle_proof: merkleProofHex(cb6.pos, 6),
        mmr_index: cb6.pos,
      }),
    );
  });
});
