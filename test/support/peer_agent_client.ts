// PeerAgent: the test's hands inside one test host (test/support/netns.ts). The test process
// lives in the root namespace, where the 198.18.0.x addresses do not exist, so whatever must
// come from a test host — a scripted Epic peer whose source address is that host's, or a call to
// a node's API bound to its host's address — is done by a small process started in the host's
// namespace (peer_agent.ts) and driven over JSON lines. One long-lived process per host keeps
// polling cheap: a fresh `node -e` per API call would cost a process start each time.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { MsgTypeName } from '../../core/p2p/msg_type.js';
import { inNamespace } from './netns.js';

const AGENT = fileURLToPath(new URL('./peer_agent.js', import.meta.url));

/** What the test asks the agent to do (peers are named by the test). */
export type AgentRequest =
  /** Dial, send Epic's Hand advertising `senderPort`; 'shake', or 'closed' with nothing read. */
  | {
      op: 'connect';
      peer: string;
      host: string;
      port: number;
      senderPort: number;
      timeoutMs: number;
    }
  /** The first not yet taken message of `type`, as JSON (bigints as text, bytes as hex). */
  | { op: 'expect'; peer: string; type: MsgTypeName; timeoutMs: number }
  /** Waits for the other side to close; the types of messages received and not taken. */
  | { op: 'closed'; peer: string; timeoutMs: number }
  | { op: 'close'; peer: string }
  /** One JSON-RPC POST to `url` with `auth`; its status and body text. */
  | { op: 'rpc'; url: string; auth: string; method: string; params: unknown; timeoutMs: number };

export type AgentCommand = AgentRequest & { readonly id: number };
export type AgentReply =
  | { readonly id: number; readonly ok: unknown }
  | { readonly id: number; readonly error: string };

interface Waiter {
  readonly resolve: (v: unknown) => void;
  readonly reject: (e: Error) => void;
}

export class PeerAgent {
  private readonly proc: ChildProcessWithoutNullStreams;
  private readonly waiting = new Map<number, Waiter>();
  private readonly exited: Promise<void>;
  private nextId = 1;
  private stderr = '';

  private constructor(ns: string) {
    const [command, ...args] = [...inNamespace(ns), process.execPath, AGENT];
    this.proc = spawn(command ?? 'ip', args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.proc.stderr.on('data', (d: Buffer) => {
      this.stderr += d.toString();
    });
    createInterface({ input: this.proc.stdout }).on('line', (line) => {
      const r = JSON.parse(line) as AgentReply;
      const w = this.waiting.get(r.id);
      this.waiting.delete(r.id);
      if ('error' in r) w?.reject(new Error(r.error));
      else w?.resolve(r.ok);
    });
    this.exited = new Promise((resolve) => {
      this.proc.on('exit', (code) => {
        const e = new Error(`peer agent exited (${code}): ${this.stderr}`);
        for (const w of this.waiting.values()) w.reject(e);
        this.waiting.clear();
        resolve();
      });
    });
  }

  /** Starts an agent inside namespace `ns`; resolves once it is ready for commands. */
  static async start(ns: string): Promise<PeerAgent> {
    const agent = new PeerAgent(ns);
    const ready = new Promise((resolve, reject) => agent.waiting.set(0, { resolve, reject }));
    await ready;
    return agent;
  }

  private call(req: AgentRequest): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.proc.stdin.write(`${JSON.stringify({ ...req, id })}\n`);
    });
  }

  /** A scripted Epic peer from this host to `host:port`: 'shake' or 'closed' (refused). */
  async connect(
    peer: string,
    host: string,
    port: number,
    senderPort: number,
    timeoutMs = 3_000,
  ): Promise<'shake' | 'closed'> {
    const r = await this.call({ op: 'connect', peer, host, port, senderPort, timeoutMs });
    return r as 'shake' | 'closed';
  }

  async expect(peer: string, type: MsgTypeName, timeoutMs = 3_000): Promise<unknown> {
    return this.call({ op: 'expect', peer, type, timeoutMs });
  }

  /** Resolves when the node closed `peer`; the types of the messages not yet taken. */
  async closed(peer: string, timeoutMs = 3_000): Promise<string[]> {
    return (await this.call({ op: 'closed', peer, timeoutMs })) as string[];
  }

  async close(peer: string): Promise<void> {
    await this.call({ op: 'close', peer });
  }

  /** One owner-API call (`/v2/owner` of the node at `url`): the reply's text; status must be 200. */
  async owner(url: string, auth: string, method: string, params: unknown): Promise<string> {
    const r = (await this.call({
      op: 'rpc',
      url: `${url}/v2/owner`,
      auth,
      method,
      params,
      timeoutMs: 5_000,
    })) as { status: number; text: string };
    if (r.status !== 200) throw new Error(`${method}: HTTP ${r.status} ${r.text}`);
    return r.text;
  }

  /** Ends the agent (its connections with it); killed if it does not leave within 2 s. */
  async stop(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    this.proc.stdin.end();
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), 2_000);
    await this.exited;
    clearTimeout(timer);
  }
}
