// The test miner's loop against a scripted chain and miner: a new head abandons the attempt and
// the next template is mined; the block it submits is the finalized header with the solution and
// the template's body; the wallet's key id is handed back until a block is mined; a refusal that
// cannot be retried stops the loop with its code; a hopeless target is announced once and not
// searched until the head moves.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type ChainPort,
  type MinerEvent,
  MinerLoop,
  type MinerPort,
  OUT_OF_REACH,
} from '../../../actors/miner/loop.js';
import type { SolveReply, SolveRequest } from '../../../actors/miner/messages.js';
import { templatePrePow } from '../../../core/chain/block_build.js';
import { coinbaseOutput } from '../../../core/chain/coinbase.js';
import { CHAIN_PARAMS } from '../../../core/chain_type.js';
import { uniformDifficulty } from '../../../core/consensus/difficulty.js';
import { genesisHeader } from '../../../core/genesis.js';
import { deriveKeyId } from '../../../core/keychain/identifier.js';
import { ExtKeychain } from '../../../core/keychain/keychain.js';
import { readBlock } from '../../../core/ser/block.js';
import { decode, encode } from '../../../core/ser/codec.js';
import { headerHash } from '../../../core/ser/header.js';
import { writeKernel, writeOutput } from '../../../core/ser/transaction.js';
import { blockTemplateToJson, finalizedTemplateToJson } from '../../../core/serde/mining.js';
import type { BlockHeader } from '../../../core/types/block.js';

const AUTO = CHAIN_PARAMS.automated;
const KEY_ID = deriveKeyId(2, 0, 1);
const CB = coinbaseOutput(ExtKeychain.fromSeed(new Uint8Array(32).fill(5)), KEY_ID, 1n);
const CB_BYTES = {
  output: encode(writeOutput, CB.output, 2, AUTO),
  kernel: encode(writeKernel, CB.kernel, 2, AUTO),
};
const PROOF = { kind: 'Cuckoo', edgeBits: 9, nonces: [1n, 2n, 3n, 4n] } as const;

function headerOn(parent: Uint8Array, height: bigint): BlockHeader {
  return { ...genesisHeader('automated'), height, prevHash: parent };
}

/** A chain whose head the test moves; templates follow the head. */
class ScriptedChain implements ChainPort {
  head = new Uint8Array(32).fill(1);
  height = 1n;
  algorithm: 'cuckoo' | 'randomx' | 'progpow' = 'cuckoo';
  difficulty = 1n;
  templates = 0;
  submitted: Uint8Array[] = [];
  sync = false;

  syncing(): boolean {
    return this.sync;
  }

  async blockTemplate() {
    this.templates++;
    return blockTemplateToJson({
      header: headerOn(this.head, this.height),
      transactions: [],
      height: this.height,
      algorithm: this.algorithm,
      blockDifficulty: uniformDifficulty(this.difficulty),
      epochs: [],
    });
  }

  async finalizeTemplate() {
    const header = headerOn(this.head, this.height);
    return finalizedTemplateToJson({
      header,
      prePow: templatePrePow(header),
      height: this.height,
      transactions: [],
      coinbaseOutput: CB.output,
      coinbaseKernel: CB.kernel,
    });
  }

  async submitBlock(block: Uint8Array) {
    this.submitted.push(block);
    return { hash: new Uint8Array(32), status: 'next' };
  }

  headHash() {
    return this.head;
  }
}

function loopWith(chain: ChainPort, miner: Partial<MinerPort>, over = {}) {
  const events: MinerEvent[] = [];
  const port: MinerPort = {
    coinbaseFees: async () => assert.fail('no foundation height here'),
    burnCoinbase: async () => CB_BYTES,
    solve: async () => assert.fail('unexpected solve'),
    ...miner,
  };
  const loop = new MinerLoop(chain, port, {
    chainType: 'automated',
    walletUrl: null,
    attemptSecs: 60,
    sliceMs: 1,
    onEvent: (e) => events.push(e),
    ...over,
  });
  return { loop, events };
}

const none = (req: SolveRequest): SolveReply => ({
  solution: null,
  nextNonce: req.startNonce + 1n,
  tries: 1,
});

describe('test miner loop', () => {
  it('abandons the attempt on a new head and mines the next template', async () => {
    const chain = new ScriptedChain();
    const solves: SolveRequest[] = [];
    const { loop, events } = loopWith(chain, {
      solve: async (req) => {
        solves.push(req);
        if (solves.length === 1) {
          chain.head = new Uint8Array(32).fill(2); // another node's block arrived
          chain.height = 2n;
          return none(req);
        }
        void loop.stop();
        return { solution: { nonce: 77n, proof: PROOF, achieved: 5n }, nextNonce: 78n, tries: 1 };
      },
    });
    await loop.start();
    assert.equal(chain.templates, 2);
    assert.deepEqual(
      solves.map((s) => [s.algo, s.height, s.target, s.budgetMs]),
      [
        ['cuckatoo', 1n, 1n, 1],
        ['cuckatoo', 2n, 1n, 1],
      ],
    );
    assert.equal(chain.submitted.length, 1);
    const block = decode(readBlock, chain.submitted[0] as Uint8Array, 2, AUTO, 'block');
    const h = headerOn(chain.head, 2n);
    assert.deepEqual(block.header, { ...h, pow: { ...h.pow, nonce: 77n, proof: PROOF } });
    assert.deepEqual(block.body, { inputs: [], outputs: [CB.output], kernels: [CB.kernel] });
    const mined = events[0];
    assert.ok(mined?.kind === 'mined');
    assert.deepEqual(
      [mined.height, mined.algorithm, mined.hash, mined.txs, mined.status],
      [2n, 'cuckatoo', Buffer.from(headerHash(block.header, AUTO)).toString('hex'), 0, 'next'],
    );
    assert.deepEqual(events.slice(1), [{ kind: 'stopped', code: null, message: null }]);
  });

  it('stops with the code of a refusal it cannot retry', async () => {
    const chain = new ScriptedChain();
    chain.algorithm = 'randomx';
    const failure = Object.assign(new Error('no addon'), { code: 'RandomXUnavailable' });
    const { loop, events } = loopWith(chain, {
      solve: async () => {
        throw failure;
      },
    });
    await loop.start();
    assert.deepEqual(events, [
      { kind: 'stopped', code: 'RandomXUnavailable', message: 'no addon' },
    ]);
  });

  it('announces a hopeless target once and idles, without searching, until the head moves', async () => {
    const chain = new ScriptedChain();
    chain.algorithm = 'progpow';
    chain.difficulty = OUT_OF_REACH + 1n;
    const solves: SolveRequest[] = [];
    const { loop, events } = loopWith(chain, {
      solve: async (req) => {
        solves.push(req);
        void loop.stop();
        return { solution: { nonce: 9n, proof: PROOF, achieved: 5n }, nextNonce: 10n, tries: 1 };
      },
    });
    const running = loop.start();
    // Fifty slices of 1 ms: a searching loop would have asked for many solves by now.
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(solves.length, 0);
    assert.equal(chain.templates, 1);
    assert.deepEqual(events, [
      { kind: 'out_of_reach', height: 1n, algorithm: 'progpow', target: OUT_OF_REACH + 1n },
    ]);
    // Another node's block: the next template is within reach and is mined.
    chain.head = new Uint8Array(32).fill(3);
    chain.height = 2n;
    chain.algorithm = 'cuckoo';
    chain.difficulty = 1n;
    await running;
    assert.equal(chain.templates, 2);
    assert.deepEqual(
      solves.map((r) => [r.algo, r.height]),
      [['cuckatoo', 2n]],
    );
    assert.equal(chain.submitted.length, 1);
    assert.deepEqual(
      events.map((e) => e.kind),
      ['out_of_reach', 'mined', 'stopped'],
    );
  });

  it("hands the wallet's key id back until a block is mined, and reuses the coinbase", async () => {
    const chain = new ScriptedChain();
    const asked: (string | null)[] = [];
    let slices = 0;
    const { loop } = loopWith(
      chain,
      {
        solve: async (req) => {
          slices++;
          if (slices === 2) chain.height = 2n; // a new height: a new coinbase
          if (slices < 3) {
            chain.head = new Uint8Array(32).fill(slices + 2);
            return none(req);
          }
          void loop.stop();
          return { solution: { nonce: 1n, proof: PROOF, achieved: 1n }, nextNonce: 2n, tries: 1 };
        },
      },
      {
        walletUrl: 'http://wallet',
        wallet: async (_url: string, fees: { keyId: Uint8Array | null }) => {
          asked.push(fees.keyId === null ? null : Buffer.from(fees.keyId).toString('hex'));
          return { output: CB.output, kernel: CB.kernel, keyId: KEY_ID.toBytes() };
        },
      },
    );
    await loop.start();
    // Height 1 twice (one coinbase), then height 2 with the unmined key id.
    assert.deepEqual(asked, [null, Buffer.from(KEY_ID.toBytes()).toString('hex')]);
    assert.equal(chain.templates, 3);
    assert.equal(chain.submitted.length, 1);
  });

  it('mines nothing while the node syncs, and starts once it is level', async () => {
    const chain = new ScriptedChain();
    chain.sync = true;
    const { loop } = loopWith(chain, {
      solve: async () => {
        void loop.stop();
        return { solution: { nonce: 77n, proof: PROOF, achieved: 5n }, nextNonce: 78n, tries: 1 };
      },
    });
    const running = loop.start();
    await new Promise((r) => setTimeout(r, 700));
    assert.equal(chain.templates, 0);
    chain.sync = false;
    await running;
    assert.equal(chain.templates, 1);
    assert.equal(chain.submitted.length, 1);
  });
});
