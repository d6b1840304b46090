// Epic's `validate_chain` in its fast mode (`Chain::validate(true)`): the MMRs' parent hashes,
// their roots and sizes against the head header, and the whole chain's kernel sum — every
// unspent output less the coins ever created against every kernel excess plus the head's
// total offset. Range proofs and signatures are not re-verified (each was when its block came).
import { equalBytes } from '../../core/bytes.js';
import { totalOverageAtHeight } from '../../core/consensus/rewards.js';
import { KernelSumError, verifyKernelSums } from '../../core/crypto/kernel.js';
import { MmrError } from '../../core/mmr/errors.js';
import { ChainError } from './errors.js';
import type { ChainStore } from './store.js';

export function validateChain(store: ChainStore): void {
  const head = store.tip('head');
  if (head === null) throw new ChainError('Other', 'no head');
  checkHeaderChain(store);
  if (head.header.height === 0n) return;
  const txhashset = store.txhashset;
  try {
    txhashset.validateMmrs();
  } catch (e) {
    if (e instanceof MmrError) throw new ChainError('Other', e.message);
    throw e;
  }
  txhashset.checkAgainst(head.header);
  const overage = totalOverageAtHeight(store.params.type, head.header.height);
  try {
    verifyKernelSums(
      { inputs: [], outputs: txhashset.unspentCommitments(), kernels: txhashset.kernelExcesses() },
      -overage,
      head.header.totalKernelOffset,
    );
  } catch (e) {
    if (e instanceof KernelSumError)
      throw new ChainError('Other', 'Committed Trait: Error summing and verifying kernel sums');
    throw e;
  }
}

/** The header MMR of the header chain ends at the header head (header_chain.ts). */
function checkHeaderChain(store: ChainStore): void {
  const headerHead = store.tip('header_head');
  if (headerHead === null) throw new ChainError('Other', 'no header head');
  const height = headerHead.header.height;
  const top = store.headerChain.hashAt(height);
  if (
    store.headerChain.count() !== height + 1n ||
    top === null ||
    !equalBytes(top, headerHead.hash)
  )
    throw new ChainError('Other', `the header MMR does not end at the header head (${height})`);
}
