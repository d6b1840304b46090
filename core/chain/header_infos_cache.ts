// Epic's `DifficultyIter` with each step remembered. A header's HeaderInfo, and which ancestor
// the iteration visits after it (its nearest ancestor of the same algorithm), depend on that
// header's own ancestry alone. Validating a run of consecutive headers (a header-sync page) with
// `headerInfos(walkBack(…))` re-reads the whole retarget window (~60 ancestors) for every
// header; with this cache each header's step is computed once and a window is a walk along
// remembered links.
import { type HeaderInfo, headerInfos } from '../consensus/difficulty_window.js';
import { algoOfProof } from '../types/pow.js';
import { type ChainHeader, type HeaderSource, parentOf } from './header_source.js';

interface Step {
  readonly info: HeaderInfo;
  /** The header the iteration visits next; undefined where it ends. */
  readonly next: ChainHeader | undefined;
}

export class HeaderInfoCache {
  readonly #source: HeaderSource;
  // Keyed by object: a source that hands out one object per header (a batch's own map) hits;
  // another copy of the same header only costs a recomputation of the same value.
  readonly #steps = new WeakMap<ChainHeader, Step>();

  constructor(source: HeaderSource) {
    this.#source = source;
  }

  /** What `headerInfos(walkBack(source, from))` yields, in the same order, lazily. */
  *infos(from: ChainHeader): Generator<HeaderInfo, void, undefined> {
    let at: ChainHeader | undefined = from;
    while (at !== undefined) {
      const step = this.#step(at);
      yield step.info;
      at = step.next;
    }
  }

  #step(h: ChainHeader): Step {
    const known = this.#steps.get(h);
    if (known !== undefined) return known;
    const step = this.#compute(h);
    this.#steps.set(h, step);
    return step;
  }

  /** One step of `headerInfos` from `h`, over the same walk it would read. */
  #compute(h: ChainHeader): Step {
    const algo = algoOfProof(h.header.pow.proof);
    const walked: ChainHeader[] = [h];
    let next = parentOf(this.#source, h);
    if (next !== undefined) walked.push(next);
    while (next !== undefined && algoOfProof(next.header.pow.proof) !== algo) {
      next = parentOf(this.#source, next);
      if (next !== undefined) walked.push(next);
    }
    const [info] = headerInfos(
      walked.map((w) => ({ hash: w.hash, timestamp: w.header.timestamp, pow: w.header.pow })),
    );
    if (info === undefined) throw new Error('headerInfos yields the header it starts from');
    return { info, next };
  }
}
