// What bench/p2p.ts runs beside the node: the process of scripted peers (p2p_peers.ts) and the
// reader of the peers actor's `p2p_loop_lag` log lines (actors/peers/loop_lag.ts).
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const peersJs = fileURLToPath(new URL('./p2p_peers.js', import.meta.url));

export interface PeersReady {
  readonly peers: number;
  readonly failed: number;
  readonly first_error: string | null;
  readonly ms: number;
}

/** Counters since the previous report (p2p_peers.ts `stats`). */
export interface PeerStats {
  readonly pingsSent: number;
  readonly pongsReceived: number;
  readonly pingsReceived: number;
  readonly pongsSent: number;
  /** Peers the node closed. */
  readonly closed: number;
  readonly connected: number;
  /** The node's Pong to our Ping, ms; null when no Pong came. */
  readonly rtt_p50_ms: number | null;
  readonly rtt_p99_ms: number | null;
  readonly rtt_max_ms: number | null;
}

export class PeerProcess {
  readonly proc: ChildProcess;
  private readonly waiting = new Map<string, (fields: unknown) => void>();

  private constructor(proc: ChildProcess) {
    this.proc = proc;
    const lines = createInterface({ input: proc.stdout as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      const msg = JSON.parse(line) as { event: string };
      this.waiting.get(msg.event)?.(msg);
      this.waiting.delete(msg.event);
    });
  }

  /** Starts `count` peers against `port`; resolves once each is through its handshake or failed. */
  static async start(
    port: number,
    count: number,
    firstSenderPort: number,
    pingMs: number,
  ): Promise<{ peers: PeerProcess; ready: PeersReady }> {
    const args = [peersJs, port, count, firstSenderPort, pingMs].map(String);
    const proc = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
    const peers = new PeerProcess(proc);
    const ready = await peers.next<PeersReady>('ready', 120_000);
    return { peers, ready };
  }

  /** The counters since the previous call (the first call: since the start). */
  stats(): Promise<PeerStats> {
    const reply = this.next<PeerStats>('stats', 10_000);
    this.proc.stdin?.write('stats\n');
    return reply;
  }

  /** Closes every peer (stdin's end) and waits for the process to exit. */
  async stop(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    const exited = once(this.proc, 'exit');
    this.proc.stdin?.end();
    await exited;
  }

  private next<T>(event: string, timeoutMs: number): Promise<T> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`peers: no ${event} in time`)), timeoutMs);
      const exit = (code: number | null) => reject(new Error(`peers exited with ${code}`));
      this.proc.once('exit', exit);
      this.waiting.set(event, (fields) => {
        clearTimeout(timer);
        this.proc.off('exit', exit);
        resolve(fields as T);
      });
    });
  }
}

/** One `p2p_loop_lag` line: the interval ending at `at` (ms since the epoch). */
export interface LagLine {
  readonly at: number;
  readonly p50_ms: number;
  readonly p99_ms: number;
  readonly max_ms: number;
  readonly samples: number;
  readonly peers: number;
}

/** Lag over a window, from the intervals in it. */
export interface LagSummary {
  readonly intervals: number;
  /** The largest interval p50 / p99 / max: p99 over the whole window is at most p99_ms. */
  readonly p50_ms: number;
  readonly p99_ms: number;
  readonly max_ms: number;
  readonly peers_min: number;
  readonly peers_max: number;
}

/** Collects the node's `p2p_loop_lag` lines from its stderr (which waitForListening decodes). */
export class LagLog {
  private readonly lines: LagLine[] = [];
  private readonly intervalMs: number;
  private partial = '';

  constructor(stderr: NodeJS.ReadableStream, intervalMs: number) {
    this.intervalMs = intervalMs;
    stderr.on('data', (chunk: string | Buffer) => {
      const text = this.partial + chunk.toString();
      const parts = text.split('\n');
      this.partial = parts.pop() ?? '';
      for (const l of parts) if (l.includes('"event":"p2p_loop_lag"')) this.add(l);
    });
  }

  /**
   * The intervals that lie wholly in [start, end] (ms since the epoch); when none does (a short
   * window), those that overlap it.
   */
  over(start: number, end: number): LagSummary | null {
    const inside = this.lines.filter((l) => l.at - this.intervalMs >= start && l.at <= end);
    const overlap = this.lines.filter((l) => l.at > start && l.at - this.intervalMs < end);
    const ls = inside.length > 0 ? inside : overlap;
    if (ls.length === 0) return null;
    const top = (f: (l: LagLine) => number): number => Math.max(...ls.map(f));
    return {
      intervals: ls.length,
      p50_ms: top((l) => l.p50_ms),
      p99_ms: top((l) => l.p99_ms),
      max_ms: top((l) => l.max_ms),
      peers_min: Math.min(...ls.map((l) => l.peers)),
      peers_max: top((l) => l.peers),
    };
  }

  private add(line: string): void {
    const j = JSON.parse(line) as Omit<LagLine, 'at'> & { ts: string };
    this.lines.push({
      at: Date.parse(j.ts),
      p50_ms: j.p50_ms,
      p99_ms: j.p99_ms,
      max_ms: j.max_ms,
      samples: j.samples,
      peers: j.peers,
    });
  }
}
