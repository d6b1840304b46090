// A progress bar on a terminal for long commands: redrawn in place on one line, erased when the
// work ends. Off a terminal (a pipe, a log file) it writes nothing, so the output stays the same
// whatever the speed of the machine.

const WIDTH = 30;

export interface Progress {
  /** `n` more units are done. */
  advance(n: number): void;
  /** Erases the bar. */
  done(): void;
}

const SILENT: Progress = { advance: () => {}, done: () => {} };

function bar(count: number, total: number): string {
  const filled = total === 0 ? WIDTH : Math.min(WIDTH, Math.floor((count / total) * WIDTH));
  return `[${'='.repeat(filled)}${' '.repeat(WIDTH - filled)}]`;
}

/** A bar counting up to `total` `unit`s on `out`, when `out` is a terminal. */
export function progressBar(out: NodeJS.WriteStream, total: number, unit: string): Progress {
  if (!out.isTTY) return SILENT;
  let count = 0;
  const draw = (): void => {
    out.write(`\r${bar(count, total)} ${count}/${total} ${unit}`);
  };
  draw();
  return {
    advance: (n) => {
      count += n;
      draw();
    },
    done: () => out.write('\r\x1b[K'),
  };
}
