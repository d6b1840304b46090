// Newline-delimited stratum lines out of TCP chunks, with a bound: a line longer than
// `maxLine` bytes is reported once (OVERLONG) and skipped up to its newline, so a miner that
// never sends a newline cannot make the server hold more than `maxLine` bytes for it. Epic has no
// bound, and closes the connection on bytes that are not UTF-8; here such a line is reported
// (INVALID) and the connection goes on.

export const OVERLONG = Symbol('overlong line');
export const INVALID = Symbol('line not UTF-8');
export type Line = string | typeof OVERLONG | typeof INVALID;

const LF = 10;
const CR = 13;
const utf8 = new TextDecoder('utf-8', { fatal: true });

export class LineSplitter {
  readonly #maxLine: number;
  #held: Uint8Array[] = [];
  #heldBytes = 0;
  /** Inside an over-long line already reported: bytes are dropped until its newline. */
  #skipping = false;

  constructor(maxLine: number) {
    this.#maxLine = maxLine;
  }

  /** Bytes of an unfinished line held now (at most `maxLine`). */
  get held(): number {
    return this.#heldBytes;
  }

  /** The lines `chunk` completes, in order. */
  push(chunk: Uint8Array): Line[] {
    const lines: Line[] = [];
    let start = 0;
    for (;;) {
      const lf = chunk.indexOf(LF, start);
      const end = lf < 0 ? chunk.length : lf;
      this.#take(chunk.subarray(start, end), lines);
      if (lf < 0) return lines;
      if (this.#skipping) this.#skipping = false;
      else lines.push(this.#line());
      start = lf + 1;
    }
  }

  #take(part: Uint8Array, lines: Line[]): void {
    if (this.#skipping || part.length === 0) return;
    if (this.#heldBytes + part.length > this.#maxLine) {
      this.#held = [];
      this.#heldBytes = 0;
      this.#skipping = true;
      lines.push(OVERLONG);
      return;
    }
    this.#held.push(part.slice());
    this.#heldBytes += part.length;
  }

  #line(): Line {
    const bytes =
      this.#held.length === 1 ? (this.#held[0] as Uint8Array) : Buffer.concat(this.#held);
    this.#held = [];
    this.#heldBytes = 0;
    const end =
      bytes.length > 0 && bytes[bytes.length - 1] === CR ? bytes.length - 1 : bytes.length;
    try {
      return utf8.decode(bytes.subarray(0, end));
    } catch {
      return INVALID;
    }
  }
}
