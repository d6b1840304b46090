// The log file with Epic's size-based rotation (log4rs's fixed window): once a line would take
// the live file past `maxSize`, the file becomes `<path>.0`, `.0` becomes `.1` and so on, the
// oldest beyond `maxFiles` rolled files is dropped, and a new live file starts. Lines are written
// whole, synchronously, from one thread (the sink's): nothing interleaves, nothing is lost at
// exit. Events are rare (none per request), so a write call per line costs nothing that counts.
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';

export interface LogFileOptions {
  readonly path: string;
  /** Keep what the file holds (true) or start it empty. */
  readonly append: boolean;
  /** Bytes; null: never rolled. */
  readonly maxSize: number | null;
  /** Rolled files kept beside the live one. */
  readonly maxFiles: number;
}

export class RotatingLogFile {
  readonly #o: LogFileOptions;
  #fd: number;
  #size: number;

  constructor(o: LogFileOptions) {
    this.#o = o;
    mkdirSync(dirname(o.path), { recursive: true });
    this.#fd = openSync(o.path, o.append ? 'a' : 'w', 0o640);
    this.#size = fstatSync(this.#fd).size;
  }

  /** One whole line (ending in a newline); pino's multistream calls this. */
  write(line: string): void {
    const bytes = Buffer.byteLength(line);
    const max = this.#o.maxSize;
    if (max !== null && this.#size > 0 && this.#size + bytes > max) this.#roll();
    writeSync(this.#fd, line);
    this.#size += bytes;
  }

  close(): void {
    closeSync(this.#fd);
  }

  #roll(): void {
    closeSync(this.#fd);
    const { path, maxFiles } = this.#o;
    const rolled = (i: number) => `${path}.${i}`;
    // The oldest goes; each other moves one place up; the live file becomes .0.
    if (maxFiles === 0) rmSync(path, { force: true });
    else {
      rmSync(rolled(maxFiles - 1), { force: true });
      for (let i = maxFiles - 2; i >= 0; i--)
        if (existsSync(rolled(i))) renameSync(rolled(i), rolled(i + 1));
      renameSync(path, rolled(0));
    }
    this.#fd = openSync(path, 'w', 0o640);
    this.#size = 0;
  }
}
