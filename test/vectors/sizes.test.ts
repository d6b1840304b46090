// Serialized sizes from Epic's `core/tests/block.rs` and `core/tests/core.rs` on the
// automated-testing chain (consensus reference §15.3), and the kernel-features read vectors.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareBytes } from '../../core/bytes.js';
import { CHAIN_PARAMS } from '../../core/chain_type.js';
import { genesisHeader } from '../../core/genesis.js';
import { writeBlock, writeCompactBlock } from '../../core/ser/block.js';
import { decode, encode, hashOf, type WriteFn } from '../../core/ser/codec.js';
import { SerError } from '../../core/ser/errors.js';
import {
  readKernelFeatures,
  writeInput,
  writeKernel,
  writeOutput,
  writeTransaction,
} from '../../core/ser/transaction.js';
import type { Block, CompactBlock } from '../../core/types/block.js';
import type { Input, Output, Transaction, TxKernel } from '../../core/types/transaction.js';

const params = CHAIN_PARAMS.automated;
let counter = 0;
const bytes = (n: number): Uint8Array =>
  Uint8Array.from({ length: n }, (_, i) => (i * 31 + ++counter) & 0xff);

const coinbaseOutput = (): Output => ({
  features: 'Coinbase',
  commit: bytes(33),
  proof: bytes(675),
});
const coinbaseKernel = (): TxKernel => ({
  features: { kind: 'Coinbase' },
  excess: bytes(33),
  excessSig: bytes(64),
});
const plainKernel = (): TxKernel => ({
  features: { kind: 'Plain', fee: 2n },
  excess: bytes(33),
  excessSig: bytes(64),
});
const input = (): Input => ({ features: 'Plain', commit: bytes(33) });
const output = (): Output => ({ features: 'Plain', commit: bytes(33), proof: bytes(675) });

function sorted<T>(items: T[], write: WriteFn<T>): T[] {
  const keyed = items.map((x) => ({ x, h: hashOf(write, x, params) }));
  return keyed.sort((a, b) => compareBytes(a.h, b.h)).map((k) => k.x);
}

function blockWithTxs(n: number): Block {
  const inputs: Input[] = [];
  const outputs: Output[] = [coinbaseOutput()];
  const kernels: TxKernel[] = [coinbaseKernel()];
  for (let i = 0; i < n; i++) {
    inputs.push(input());
    outputs.push(output(), output());
    kernels.push(plainKernel());
  }
  return {
    header: genesisHeader('automated'),
    body: {
      inputs: sorted(inputs, writeInput),
      outputs: sorted(outputs, writeOutput),
      kernels: sorted(kernels, writeKernel),
    },
  };
}

function compact(b: Block, txs: number): CompactBlock {
  const ids = Array.from({ length: txs }, () => bytes(6));
  return {
    header: b.header,
    nonce: 0n,
    body: { outFull: [coinbaseOutput()], kernFull: [coinbaseKernel()], kernIds: ids },
  };
}

describe('serialized sizes (automated testing chain)', () => {
  it('header is 350 bytes', () => {
    assert.equal(
      encode(
        writeBlock,
        { header: genesisHeader('automated'), body: { inputs: [], outputs: [], kernels: [] } },
        2,
        params,
      ).length,
      374,
    );
  });

  it('blocks', () => {
    assert.equal(encode(writeBlock, blockWithTxs(0), 2, params).length, 1_189);
    assert.equal(encode(writeBlock, blockWithTxs(1), 2, params).length, 2_763);
    assert.equal(encode(writeBlock, blockWithTxs(10), 2, params).length, 16_929);
    assert.equal(encode(writeBlock, blockWithTxs(10), 1, params).length, 17_025);
  });

  it('compact blocks', () => {
    assert.equal(encode(writeCompactBlock, compact(blockWithTxs(0), 0), 2, params).length, 1_197);
    assert.equal(encode(writeCompactBlock, compact(blockWithTxs(1), 1), 2, params).length, 1_203);
    assert.equal(encode(writeCompactBlock, compact(blockWithTxs(10), 10), 2, params).length, 1_257);
  });

  it('a 2-in/1-out transaction', () => {
    const tx: Transaction = {
      offset: bytes(32),
      body: {
        inputs: sorted([input(), input()], writeInput),
        outputs: [output()],
        kernels: [plainKernel()],
      },
    };
    assert.equal(encode(writeTransaction, tx, 2, params).length, 947);
    assert.equal(encode(writeTransaction, tx, 1, params).length, 955);
  });
});

describe('kernel features read with protocol 2', () => {
  const v2 = (hex: string) =>
    decode(readKernelFeatures, Buffer.from(hex, 'hex'), 2, params, 'features');

  it('reads each variant', () => {
    assert.deepEqual(v2('00000000000000000a'), { kind: 'Plain', fee: 10n });
    assert.deepEqual(v2('01'), { kind: 'Coinbase' });
    assert.deepEqual(v2('02000000000000000a0000000000000064'), {
      kind: 'HeightLocked',
      fee: 10n,
      lockHeight: 100n,
    });
  });

  it('refuses an unknown tag with CorruptedData', () => {
    assert.throws(
      () => v2('030000000000000000'),
      (e: unknown) =>
        e instanceof SerError &&
        e.kind === 'CorruptedData' &&
        e.detail === 'unknown kernel features 3',
    );
  });

  it('v1 reads the 17-byte form and refuses inconsistent ones', () => {
    const v1 = (hex: string) =>
      decode(readKernelFeatures, Buffer.from(hex, 'hex'), 1, params, 'features');
    assert.deepEqual(v1('00000000000000000a0000000000000000'), { kind: 'Plain', fee: 10n });
    assert.deepEqual(v1('010000000000000000' + '0000000000000000'), { kind: 'Coinbase' });
    assert.throws(() => v1('00000000000000000a0000000000000001'), SerError);
    assert.throws(() => v1('01000000000000000a0000000000000000'), SerError);
  });
});
