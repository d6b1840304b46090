// Back-pressure through the real gateway and the real runtime: an actor whose mailbox is full
// makes the gateway answer 503 with a JSON-RPC error body at once, never a growing queue.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ChainHeadInfo } from '../../actors/chain/messages.js';
import { type Gateway, startGateway } from '../../gateway/server.js';
import { NO_PEERS, type Services } from '../../gateway/services.js';
import { type ActorRef, ActorSystem } from '../../runtime/index.js';
import { type ProbeProtocol, probeActor } from '../support/actors/probe_messages.js';
import { headInfo } from '../support/gateway.js';

const HEAD: ChainHeadInfo = headInfo(7n, 1);
const MAILBOX = 4;
const BUSY_BODY =
  '{\n  "error": {\n    "code": -32000,\n    "message": "Server busy"\n  },\n  "id": null,\n  "jsonrpc": "2.0"\n}';

describe('gateway back-pressure', () => {
  let system: ActorSystem;
  let probe: ActorRef<ProbeProtocol>;
  let gateway: Gateway;

  before(async () => {
    system = new ActorSystem();
    probe = await system.spawn(probeActor, {
      name: 'slow',
      init: { start: 0n },
      mailbox: MAILBOX,
      concurrency: 1,
    });
    // A chain stand-in that takes 100 ms per request on its own thread.
    const slowHead = async (): Promise<ChainHeadInfo> => {
      await probe.ask('sleep', { ms: 100 });
      return HEAD;
    };
    const services: Services = {
      chain: (async (kind: string) =>
        kind === 'getTip' ? (await slowHead()).tip : slowHead()) as Services['chain'],
      pool: (() => Promise.reject(new Error('no pool in this test'))) as never,
      peers: (() => Promise.reject(new Error('no peers in this test'))) as never,
      // Nothing published: every request goes to the (slow) actor.
      head: () => null,
      poolGeneration: () => 0,
      connectedPeers: () => NO_PEERS,
    };
    gateway = await startGateway({
      host: '127.0.0.1',
      port: 0,
      tls: null,
      secrets: { owner: null, foreign: null },
      services,
      identity: { userAgent: 'test', chainType: 'automated' },
    });
  });

  after(async () => {
    gateway.close();
    await system.shutdown();
  });

  it('a flood beyond the mailbox gets immediate 503s with a JSON-RPC body; then the node serves again', async () => {
    const url = `http://127.0.0.1:${gateway.port}/v2/foreign`;
    const body = '{"jsonrpc":"2.0","method":"get_tip","params":[],"id":1}';
    const started = performance.now();
    const replies = await Promise.all(
      Array.from({ length: 60 }, async () => {
        const r = await fetch(url, { method: 'POST', body });
        return { status: r.status, text: await r.text(), type: r.headers.get('content-type') };
      }),
    );
    const ok = replies.filter((r) => r.status === 200);
    const busy = replies.filter((r) => r.status === 503);
    assert.equal(ok.length + busy.length, 60);
    assert.ok(ok.length >= MAILBOX && ok.length < 60, `ok ${ok.length}`);
    for (const r of busy) {
      assert.equal(r.text, BUSY_BODY);
      assert.equal(r.type, 'application/json');
    }
    assert.match(ok[0]?.text ?? '', /"height": 7,/);
    // Refusals are immediate: the whole flood takes far less than 60 × 100 ms.
    assert.ok(performance.now() - started < 3000);
    assert.ok(probe.stats().queued + probe.stats().inFlight <= MAILBOX);
    const again = await fetch(url, { method: 'POST', body });
    assert.equal(again.status, 200);
    assert.equal(gateway.inFlight(), 0);
  });
});
