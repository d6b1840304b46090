// What bench/sync.ts runs and reads beside the syncing node: the scripted peers' process
// (sync_peers.ts), a get_tip prober standing for an API client during the sync, the node's
// `p2p_sync` log lines (when each state began, by the node's own clock), and its peak memory.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const peersJs = fileURLToPath(new URL('./sync_peers.js', import.meta.url));

/** sync_peers.ts `stats`: counters since the previous report. */
export interface ServedStats {
  readonly connections: number;
  readonly getHeaders: number;
  readonly getHeadersFastSync: number;
  readonly headersServed: number;
  readonly getBlock: number;
  readonly blocksServed: number;
  readonly unservable: number;
  readonly offsets: Record<string, number>;
  readonly connected: number;
}

export class SyncPeers {
  readonly proc: ChildProcess;
  readonly ports: readonly number[];
  private readonly waiting: Map<string, (fields: unknown) => void>;

  private constructor(proc: ChildProcess, ports: readonly number[], waiting: SyncPeers['waiting']) {
    this.proc = proc;
    this.ports = ports;
    this.waiting = waiting;
  }

  /** `count` peers serving `file`'s chain up to `height`; resolves once they listen. */
  static async start(file: string, height: number, count: number): Promise<SyncPeers> {
    const args = [peersJs, file, String(height), String(count)];
    const proc = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
    const waiting = new Map<string, (fields: unknown) => void>();
    createInterface({ input: proc.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      const msg = JSON.parse(line) as { event: string };
      waiting.get(msg.event)?.(msg);
      waiting.delete(msg.event);
    });
    const ready = await next<{ ports: number[] }>(proc, waiting, 'ready', 120_000);
    return new SyncPeers(proc, ready.ports, waiting);
  }

  /** The p2p_config lines that make a node dial exactly these peers. */
  seedLines(): string[] {
    const seeds = this.ports.map((p) => `"127.0.0.1:${p}"`).join(', ');
    return [
      'seeding_type = "List"',
      `seeds = [${seeds}]`,
      // Three peers are all there is: the node must not wait for a fourth outbound one.
      'peer_min_preferred_outbound_count = 1',
    ];
  }

  async stats(): Promise<ServedStats> {
    const reply = next<ServedStats & { event?: string }>(this.proc, this.waiting, 'stats', 10_000);
    this.proc.stdin?.write('stats\n');
    const { event: _, ...counters } = await reply;
    return counters;
  }

  async stop(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    const exited = once(this.proc, 'exit');
    this.proc.stdin?.end();
    await exited;
  }
}

function next<T>(
  proc: ChildProcess,
  waiting: Map<string, (fields: unknown) => void>,
  event: string,
  timeoutMs: number,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sync peers: no ${event} in time`)), timeoutMs);
    const exit = (code: number | null) => reject(new Error(`sync peers exited with ${code}`));
    proc.once('exit', exit);
    waiting.set(event, (fields) => {
      clearTimeout(timer);
      proc.off('exit', exit);
      resolve(fields as T);
    });
  });
}

/** One `p2p_sync` line: a new state (or new heights in it), at the node's log time. */
export interface SyncLine {
  readonly at: number;
  readonly status: string;
  readonly current: number | null;
  readonly highest: number | null;
}

/**
 * The node's `p2p_sync` lines as they come (its stderr, which spawnNode decodes as text): the
 * state machine's changes, each with the log's timestamp, and a wait for a given one.
 */
export class SyncLog {
  readonly lines: SyncLine[] = [];
  /** `p2p_peer_banned` reasons, in order. */
  readonly bans: string[] = [];
  private partial = '';
  private waiters: (() => void)[] = [];

  /** `before`: the log text captured before this reader was attached (spawnNode keeps it). */
  constructor(stderr: NodeJS.ReadableStream, before: string) {
    const earlier = before.split('\n');
    // The last piece may be half a line: the stream brings the rest.
    this.partial = earlier.pop() ?? '';
    for (const l of earlier) this.line(l);
    stderr.on('data', (chunk: string | Buffer) => {
      const parts = (this.partial + chunk.toString()).split('\n');
      this.partial = parts.pop() ?? '';
      for (const l of parts) this.line(l);
    });
  }

  /** The first line `pred` accepts, waiting up to `timeoutMs` for it. */
  async first(pred: (l: SyncLine) => boolean, timeoutMs: number): Promise<SyncLine> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.lines.find(pred);
      if (hit !== undefined) return hit;
      const left = end - Date.now();
      const last = this.lines.at(-1);
      if (left <= 0)
        throw new Error(`no such p2p_sync line in ${timeoutMs} ms; last ${JSON.stringify(last)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 1_000));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  private line(l: string): void {
    if (l.includes('"event":"p2p_sync"')) this.add(l);
    else if (l.includes('"event":"p2p_peer_banned"'))
      this.bans.push((JSON.parse(l) as { reason?: string }).reason ?? '?');
  }

  private add(line: string): void {
    const j = JSON.parse(line) as {
      ts: string;
      status: string;
      current_height?: number;
      highest_height?: number;
    };
    this.lines.push({
      at: Date.parse(j.ts),
      status: j.status,
      current: j.current_height ?? null,
      highest: j.highest_height ?? null,
    });
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) w();
  }
}

export interface Latency {
  readonly requests: number;
  /** Failed requests over the whole run. */
  readonly errors: number;
  readonly p50_ms: number;
  readonly p99_ms: number;
  readonly max_ms: number;
}

/**
 * get_tip on /v2/foreign, one request at a time with `gapMs` between them (an API client
 * polling the tip, not a load test), until stopped: its latency while the node syncs. Each
 * sample keeps when it started, so a window known only afterwards can be cut out.
 */
export class TipProbe {
  private readonly samples: { readonly at: number; readonly ms: number }[] = [];
  private errors = 0;
  private running = true;
  private readonly done: Promise<void>;

  constructor(url: string, gapMs = 10) {
    this.done = this.loop(url, gapMs);
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.done;
  }

  /** Latency of the requests that started within [from, to] (ms since the epoch). */
  between(from: number, to: number): Latency {
    const s = this.samples
      .filter((x) => x.at >= from && x.at <= to)
      .map((x) => x.ms)
      .sort((a, b) => a - b);
    const at = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? Number.NaN;
    return {
      requests: s.length,
      errors: this.errors,
      p50_ms: at(0.5),
      p99_ms: at(0.99),
      max_ms: s.at(-1) ?? Number.NaN,
    };
  }

  private async loop(url: string, gapMs: number): Promise<void> {
    let id = 0;
    while (this.running) {
      const body = JSON.stringify({ jsonrpc: '2.0', method: 'get_tip', params: [], id: ++id });
      const at = Date.now();
      const t0 = performance.now();
      try {
        const r = await fetch(`${url}/v2/foreign`, { method: 'POST', body });
        const text = await r.text();
        if (r.status !== 200 || !text.includes('"Ok"')) this.errors++;
        else this.samples.push({ at, ms: performance.now() - t0 });
      } catch {
        this.errors++;
      }
      await new Promise((resolve) => setTimeout(resolve, gapMs));
    }
  }
}

export { peakRssMiB, rssMiB } from '../../test/support/process_memory.js';

/**
 * Copies the node's log (what was captured so far, then the stream) to a file in the temporary
 * directory named after the run; returns its path.
 */
export function saveLog(stderr: NodeJS.ReadableStream, before: string, run: string): string {
  const file = join(tmpdir(), `mwnode-bench-sync-${run.replace(/[^a-z0-9]+/gi, '-')}.log`);
  const out = createWriteStream(file);
  out.write(before);
  stderr.on('data', (chunk: string | Buffer) => out.write(chunk));
  stderr.on('end', () => out.end());
  return file;
}
