// The process half of PeerAgent (peer_agent_client.ts): run inside a test host's namespace
// (`ip netns exec <ns> node peer_agent.js`), it does from that host what the test asks, one JSON
// command a line on stdin, one JSON reply a line on stdout: scripted Epic peers (EpicPeer) that
// connect to a node with the host's own address as their source, and owner-API calls to nodes
// the test process itself cannot reach (it lives in the root namespace, where the test
// addresses do not exist). Nothing here acts on its own: every socket is opened by a command.
import { createInterface } from 'node:readline';
import { EpicPeer, wireAddr } from './epic_peer.js';
import type { AgentCommand, AgentReply } from './peer_agent_client.js';

const peers = new Map<string, EpicPeer>();

function peerNamed(name: string): EpicPeer {
  const p = peers.get(name);
  if (p === undefined) throw new Error(`no peer named ${name}`);
  return p;
}

/** JSON for decoded messages: bigints as decimal text, byte arrays as hex. */
function plain(_key: string, v: unknown): unknown {
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Uint8Array) return Buffer.from(v).toString('hex');
  return v;
}

async function run(c: AgentCommand): Promise<unknown> {
  switch (c.op) {
    case 'connect': {
      peers.get(c.peer)?.socket.destroy();
      const peer = await EpicPeer.connect(c.host, c.port);
      peers.set(c.peer, peer);
      const local = peer.socket.localAddress ?? '';
      peer.sendHand({ senderAddr: wireAddr(local, c.senderPort) });
      try {
        await peer.expect('Shake', c.timeoutMs);
        return 'shake';
      } catch (e) {
        // A refusal is a close with nothing received; anything else is the test's failure.
        if (peer.closed && peer.pending().length === 0) return 'closed';
        throw e;
      }
    }
    case 'expect':
      return JSON.parse(
        JSON.stringify((await peerNamed(c.peer).expect(c.type, c.timeoutMs)).message, plain),
      );
    case 'closed':
      await peerNamed(c.peer).closedWithin(c.timeoutMs);
      return peerNamed(c.peer)
        .pending()
        .map((r) => r.message.type);
    case 'close':
      await peerNamed(c.peer).close();
      peers.delete(c.peer);
      return null;
    case 'rpc': {
      const r = await fetch(c.url, {
        method: 'POST',
        headers: { authorization: c.auth },
        body: JSON.stringify({ jsonrpc: '2.0', method: c.method, params: c.params, id: 1 }),
        signal: AbortSignal.timeout(c.timeoutMs),
      });
      return { status: r.status, text: await r.text() };
    }
  }
}

function reply(r: AgentReply): void {
  process.stdout.write(`${JSON.stringify(r)}\n`);
}

// Commands run concurrently (a test may wait for a close while it calls the API); each reply
// carries its command's id.
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const c = JSON.parse(line) as AgentCommand;
  run(c).then(
    (ok) => reply({ id: c.id, ok }),
    (e: unknown) => reply({ id: c.id, error: e instanceof Error ? e.message : String(e) }),
  );
});
// The test ended (or died): drop every connection and leave.
lines.on('close', () => {
  for (const p of peers.values()) p.socket.destroy();
  process.exit(0);
});
reply({ id: 0, ok: 'ready' });
