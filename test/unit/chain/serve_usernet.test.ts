// Golden: Epic's own usernet chain (../shared/vectors/p2p, 147 blocks, RandomX and Cuckatoo15)
// loaded block by block into our chain (archive mode, Epic's `{ randomx = 60, cuckatoo = 40 }`
// policy, every proof verified), then served as Epic served it: FastHeaders 1..140 for the
// recorded GetHeadersFastSync while the chain was at 140, Headers 1..147 for the recorded
// GetHeaders, every Block body, and every CompactBlock Epic sent, byte for byte (the nonce
// pinned to the recorded one). Skipped without the RandomX addon (88 of the proofs are RandomX).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ChainService } from '../../../actors/chain/service.js';
import { toHex } from '../../../core/bytes.js';
import { CHAIN_PARAMS } from '../../../core/chain_type.js';
import { encodeFrame, encodeMessage } from '../../../core/p2p/msg.js';
import type { MsgOf, P2pMessage } from '../../../core/p2p/types.js';
import { headerHash } from '../../../core/ser/header.js';
import { findRandomXAddon } from '../../../jobs/randomx_addon.js';
import { hex } from '../../support/crypto.js';
import { decodeRecordedFrame, recordedLines } from '../../support/p2p_vectors.js';
import { type UsernetService, usernetBlocks, usernetService } from '../../support/usernet_chain.js';

const USER = CHAIN_PARAMS.usernet;

const lines = recordedLines;

const decodeFrame = (frameHex: string): P2pMessage => decodeRecordedFrame(frameHex);

/** The recorded request `name` of a session and the next message A sent (its answer). */
function exchange(session: string, name: string): { request: P2pMessage; replyHex: string } {
  const msgs = lines(`${session}.jsonl`).filter((m) => m.hex !== undefined);
  const at = msgs.findIndex((m) => m.name === name);
  const reply = msgs.slice(at + 1).find((m) => m.from === 'A');
  return { request: decodeFrame(msgs[at]?.hex as string), replyHex: reply?.hex as string };
}

const chain = usernetBlocks();

describe("serving Epic's usernet chain", {
  skip: findRandomXAddon() === null ? 'RandomX addon not built' : false,
  timeout: 300_000,
}, () => {
  let usernet: UsernetService;
  let service: ChainService;
  let nonce = 0n;

  async function submitUpTo(height: number): Promise<void> {
    for (const b of chain) {
      if ((b.height as number) === 0 || (b.height as number) > height) continue;
      if (service.getTip().height >= BigInt(b.height as number)) continue;
      const reply = await service.submitBlock(hex(b.hex as string), () => undefined);
      assert.equal(toHex(reply.hash), b.hash);
    }
  }

  before(async () => {
    usernet = usernetService({ compactNonce: () => nonce });
    service = usernet.service;
    await submitUpTo(140);
  });
  after(() => usernet?.close());

  it("at 140, B's GetHeadersFastSync gets Epic's FastHeaders (1..140), byte for byte", () => {
    const { request, replyHex } = exchange('usernet_sync_capture', 'GetHeadersFastSync');
    const req = request as MsgOf<'GetHeadersFastSync'>;
    const { headers } = service.headersForLocator(req.locator, req.offset);
    assert.equal(toHex(encodeFrame({ type: 'FastHeaders', headers }, 2, USER)), replyHex);
  });

  it("at 147 (blocks 141–147 added), X's GetHeaders gets Epic's Headers (1..147), byte for byte", async () => {
    await submitUpTo(147);
    const { request, replyHex } = exchange('usernet_client_exchange', 'GetHeaders');
    const req = request as MsgOf<'GetHeaders'>;
    const { headers } = service.headersForLocator(req.locator, 0);
    assert.equal(toHex(encodeFrame({ type: 'Headers', headers }, 2, USER)), replyHex);
  });

  it("our locator at 147 names Epic's heights 147, 145, 141, 133, 117, 85, 21, 0", () => {
    assert.deepEqual(
      service.locator().hashes.map(toHex),
      [147, 145, 141, 133, 117, 85, 21, 0].map((h) => chain[h]?.hash),
    );
  });

  it('every Block body (0..147) is the one Epic served', () => {
    for (const b of chain) {
      const block = service.blockByHash(hex(b.hash as string));
      assert.ok(block !== null, `block ${b.height}`);
      assert.equal(toHex(encodeMessage({ type: 'Block', block }, 2, USER)), b.hex);
    }
  });

  it('every CompactBlock Epic sent, rebuilt under its nonce, byte for byte', () => {
    let count = 0;
    for (const s of [
      'usernet_sync_capture',
      'usernet_client_exchange',
      'usernet_relay_header_first',
    ]) {
      for (const m of lines(`${s}.jsonl`)) {
        if (m.name !== 'CompactBlock' || m.from !== 'A') continue;
        const sent = (decodeFrame(m.hex as string) as MsgOf<'CompactBlock'>).block;
        nonce = sent.nonce;
        const ours = service.compactBlockByHash(headerHash(sent.header, USER));
        assert.ok(ours !== null);
        assert.equal(toHex(encodeFrame({ type: 'CompactBlock', block: ours }, 2, USER)), m.hex);
        count++;
      }
    }
    assert.equal(count, 9);
  });
});
