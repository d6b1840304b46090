// What the chain actor does for each message, over its store. No thread or transport code here.
import { CHAIN_PARAMS } from '../../core/chain_type.js';
import type { ChainHeadInfo, ChainInit, ChainTip } from './messages.js';
import { ChainStore } from './store.js';

export class ChainService {
  private readonly store: ChainStore;

  constructor(init: ChainInit) {
    this.store = new ChainStore(init.dbRoot, CHAIN_PARAMS[init.chainType]);
  }

  getTip(): ChainTip {
    return this.getHead().tip;
  }

  getHead(): ChainHeadInfo {
    const head = this.store.tip('head');
    if (head === null)
      throw Object.assign(new Error("can't get head: no head in the store"), { code: 'Internal' });
    const h = head.header;
    return {
      tip: {
        height: h.height,
        lastBlockPushed: head.hash,
        prevBlockToLast: h.prevHash, // all zeros at genesis
        totalDifficulty: h.pow.totalDifficulty,
      },
      headerVersion: h.version,
    };
  }

  close(): void {
    this.store.close();
  }
}
