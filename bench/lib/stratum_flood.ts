// Stratum submits from a thread of its own (bench/stratum.ts): `miners` connections log in, then
// for `seconds` each keeps 8 submits of `line` in flight (a flood), or, with `interval`, sends one
// every `interval` ms from a random start (a pool's steady shares); posts back the answers a
// second. It runs at a low priority because it stands for miners on other machines: on the
// bench's one machine it should take only the cores the node leaves free, as wrk's load does not.
import { connect, type Socket } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThreadPriority } from '../../runtime/thread_priority.js';

export interface FloodData {
  readonly port: number;
  readonly line: string;
  readonly seconds: number;
  readonly miners: number;
  readonly nice: number;
  /** Each miner's time between submits in ms; absent: as fast as answered. */
  readonly interval?: number;
}

/** At most this many submits unanswered per miner: under the server's 100/s rate cap and burst. */
const IN_FLIGHT = 8;

interface FloodMiner {
  readonly socket: Socket;
  replies: number;
  sent: number;
  /** When the next paced submit is due. */
  dueAt: number;
}

function open(port: number): Promise<FloodMiner> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        '{"id":1,"jsonrpc":"2.0","method":"login","params":{"login":"flood","pass":"","agent":"bench"}}\n',
      );
      resolve(m);
    });
    const m: FloodMiner = { socket, replies: 0, sent: 0, dueAt: 0 };
    let tail = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      const lines = (tail + d).split('\n');
      tail = lines.pop() ?? '';
      for (const l of lines) if (l !== '' && !l.startsWith('{"id":"Stratum"')) m.replies++;
    });
    socket.once('error', reject);
  });
}

async function flood(data: FloodData): Promise<number> {
  lowerThreadPriority(data.nice);
  const miners: FloodMiner[] = [];
  for (let i = 0; i < data.miners; i++) miners.push(await open(data.port));
  await new Promise((r) => setTimeout(r, 500));
  for (const m of miners) m.replies = 0; // the logins' answers
  const t0 = performance.now();
  const until = t0 + data.seconds * 1000;
  const interval = data.interval ?? 0;
  for (const m of miners) m.dueAt = t0 + Math.random() * interval;
  for (let now = t0; now < until; now = performance.now()) {
    for (const m of miners)
      if (m.dueAt <= now && m.sent - m.replies < IN_FLIGHT) {
        m.socket.write(data.line);
        m.sent++;
        m.dueAt += interval;
      }
    await new Promise((r) => setTimeout(r, interval === 0 ? 1 : 5));
  }
  const answered = miners.reduce((n, m) => n + m.replies, 0);
  for (const m of miners) m.socket.destroy();
  return answered / ((performance.now() - t0) / 1000);
}

parentPort?.postMessage(await flood(workerData as FloodData));
