// A miner on the other end of a stratum connection, for tests: writes lines, reads the server's
// lines in order, and notices when the server closes.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';

/** A miner on the other end: sends lines, reads lines in order. */
export class StratumClient {
  readonly lines: string[] = [];
  #buffer = '';
  #waiters: (() => void)[] = [];
  closed = false;
  constructor(readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      this.#buffer += d;
      const parts = this.#buffer.split('\n');
      this.#buffer = parts.pop() as string;
      this.lines.push(...parts);
      for (const w of this.#waiters.splice(0)) w();
    });
    socket.on('close', () => {
      this.closed = true;
      for (const w of this.#waiters.splice(0)) w();
    });
  }

  static open(port: number): Promise<StratumClient> {
    return new Promise((resolve, reject) => {
      const s = connect(port, '127.0.0.1', () => resolve(new StratumClient(s)));
      s.once('error', reject);
    });
  }

  send(text: string | Uint8Array): void {
    this.socket.write(text);
  }

  /** The next `n` lines not taken yet (waits up to 5 s). */
  async take(n: number): Promise<string[]> {
    const until = Date.now() + 5000;
    while (this.lines.length < n && !this.closed && Date.now() < until)
      await new Promise<void>((r) => {
        this.#waiters.push(r);
        setTimeout(r, 100);
      });
    assert.ok(this.lines.length >= n, `got ${this.lines.length} of ${n} lines`);
    return this.lines.splice(0, n);
  }

  /** Takes the first line (in order) that `match` accepts, leaving the others (waits up to `ms`). */
  async takeWhere(match: (line: string) => boolean, ms = 10_000): Promise<string> {
    const until = Date.now() + ms;
    for (;;) {
      const i = this.lines.findIndex(match);
      if (i >= 0) return this.lines.splice(i, 1)[0] as string;
      assert.ok(!this.closed && Date.now() < until, `no such line; have ${this.lines.join(' | ')}`);
      await new Promise<void>((r) => {
        this.#waiters.push(r);
        setTimeout(r, 100);
      });
    }
  }

  /** Sends one request and takes the reply naming its id (pushed jobs stay in `lines`). */
  async ask(id: number, method: string, params?: string): Promise<string> {
    const p = params === undefined ? '' : `,"params":${params}`;
    this.send(`{"id":${id},"jsonrpc":"2.0","method":"${method}"${p}}\n`);
    return this.takeWhere((l) => l.startsWith(`{"id":${id},`));
  }

  /** Resolves once the server has closed the connection. */
  async closedByServer(ms: number): Promise<boolean> {
    const until = Date.now() + ms;
    while (!this.closed && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    return this.closed;
  }
}
