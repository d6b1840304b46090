// A small closed-loop HTTP/1.1 load generator on raw sockets: N keep-alive connections, each
// sending its next request as soon as the previous response is complete. Responses are framed by
// Content-Length (all servers under test send it). Latencies are kept per request for p50/p99.
import { connect, type Socket } from 'node:net';

export interface LoadResult {
  readonly requests: number;
  readonly seconds: number;
  readonly rps: number;
  readonly p50ms: number;
  readonly p99ms: number;
  readonly errors: number;
}

export interface LoadOptions {
  readonly port: number;
  readonly request: Buffer;
  readonly connections: number;
  readonly seconds: number;
  /** Every response must have this status; others count as errors. */
  readonly expectStatus?: number;
}

const HEADER_END = Buffer.from('\r\n\r\n');

/** Returns the length of one complete response at the start of `buf`, or 0 if incomplete. */
function responseLength(buf: Buffer): { length: number; status: number } | null {
  const end = buf.indexOf(HEADER_END);
  if (end < 0) return null;
  const head = buf.subarray(0, end).toString('latin1');
  const status = Number(head.slice(9, 12));
  const m = /\r\ncontent-length: *(\d+)/i.exec(head);
  const body = m ? Number(m[1]) : 0;
  const length = end + 4 + body;
  return buf.length >= length ? { length, status } : null;
}

function runConnection(
  opts: LoadOptions,
  until: number,
  latencies: number[],
  counts: { ok: number; errors: number },
): Promise<void> {
  return new Promise((resolve) => {
    const socket: Socket = connect({ port: opts.port, host: '127.0.0.1', noDelay: true });
    let pending = Buffer.alloc(0);
    let sentAt = 0;
    const send = (): void => {
      if (performance.now() >= until) {
        socket.end();
        return;
      }
      sentAt = performance.now();
      socket.write(opts.request);
    };
    socket.on('connect', send);
    socket.on('data', (chunk) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      for (let r = responseLength(pending); r !== null; r = responseLength(pending)) {
        latencies.push(performance.now() - sentAt);
        if (opts.expectStatus === undefined || r.status === opts.expectStatus) counts.ok++;
        else counts.errors++;
        pending = pending.subarray(r.length);
        send();
      }
    });
    socket.on('error', () => {
      counts.errors++;
      resolve();
    });
    socket.on('close', () => resolve());
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  const counts = { ok: 0, errors: 0 };
  const start = performance.now();
  const until = start + opts.seconds * 1000;
  await Promise.all(
    Array.from({ length: opts.connections }, () => runConnection(opts, until, latencies, counts)),
  );
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: counts.ok,
    seconds,
    rps: counts.ok / seconds,
    p50ms: percentile(latencies, 50),
    p99ms: percentile(latencies, 99),
    errors: counts.errors,
  };
}

export function httpRequest(
  method: string,
  path: string,
  body: string,
  headers: Record<string, string> = {},
): Buffer {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: keep-alive'];
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  if (body.length > 0 || method === 'POST')
    lines.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}`);
}
