// The status page in a real browser: headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core, which downloads no browser) against a real node on the automated-testing
// chain with one inbound peer (a scripted Epic peer). The page's figures are checked against the
// owner and foreign APIs (get_status, get_connected_peers, get_header, pool sizes), the tip
// against get_status within one second of a new block, the request counter against the exact
// number of calls made, and the page on a phone-sized viewport; screenshots of both go to
// bench/results/dashboard-desktop.png and dashboard-phone.png. Credential rules by plain HTTP.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { parseJson } from '../../core/json/parse.js';
import type { JsonValue } from '../../core/json/value.js';
import { CAPABILITIES } from '../../core/p2p/primitives.js';
import { UNAUTHORIZED_BODY } from '../../gateway/auth.js';
import { ROUTE_INDEX } from '../../gateway/routes.js';
import { EpicPeer } from '../support/epic_peer.js';
import { foreignOk, mineBlock, submit } from '../support/miner.js';
import {
  basic,
  type NodeProcess,
  ownerSecret,
  p2pPortOf,
  removeHome,
  startNodeProcess,
} from '../support/node_process.js';
import { REPO_ROOT } from '../support/paths.js';
import { pollUntil } from '../support/poll.js';

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = join(REPO_ROOT, 'bench', 'results');
/** What the scripted peer announces: below our chain's work, so the node never syncs from it. */
const PEER_DIFF = { cuckaroo: 1n, cuckatoo: 1n, randomx: 1n, progpow: 1n };
const PEER_CAPS = CAPABILITIES.HEADER_HIST | CAPABILITIES.PEER_LIST;

type Json = { readonly [k: string]: JsonValue };

/** The little of the DOM the functions run in the page touch (the build has no DOM library). */
interface PageElement {
  readonly textContent: string | null;
  readonly dataset: Readonly<Record<string, string | undefined>>;
}
declare const document: {
  getElementById(id: string): PageElement | null;
  readonly documentElement: { readonly scrollWidth: number };
};
declare const window: { readonly innerWidth: number };

let node: NodeProcess;
let secret: string;
let peer: EpicPeer;
let browser: Browser;

async function owner(method: string): Promise<JsonValue> {
  const r = await fetch(`${node.url}/v2/owner`, {
    method: 'POST',
    headers: { authorization: basic(secret) },
    body: JSON.stringify({ jsonrpc: '2.0', method, params: [], id: 1 }),
  });
  assert.equal(r.status, 200);
  const body = parseJson(await r.text()) as Json;
  return (body.result as Json).Ok as JsonValue;
}

const status = async () => (await owner('get_status')) as Json;

async function mineOne(): Promise<void> {
  const reply = await submit(node.url, await mineBlock(node.url));
  assert.deepEqual(reply.body.result, { Ok: null });
}

/** A browser page on the dashboard with the owner credential; every request it makes kept. */
async function openPage(
  options: Parameters<Browser['newContext']>[0],
): Promise<{ context: BrowserContext; page: Page; urls: string[]; errors: string[] }> {
  const context = await browser.newContext({
    ...options,
    httpCredentials: { username: 'node', password: secret },
  });
  const page = await context.newPage();
  const urls: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => urls.push(r.url()));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  const res = await page.goto(`${node.url}/dashboard`);
  assert.equal(res?.status(), 200);
  await page.waitForFunction(() => document.getElementById('conn')?.textContent === 'live');
  await page.waitForFunction(() => document.getElementById('tip-height')?.textContent !== '\u2013');
  return { context, page, urls, errors };
}

const textOf = (page: Page, id: string) => page.locator(`#${id}`).textContent();

/** When the page's shown snapshot was taken (changes with each one it renders). */
const shownAt = (page: Page) => page.locator('#updated').getAttribute('data-at');

async function nextSnapshot(page: Page): Promise<void> {
  const at = await shownAt(page);
  await page.waitForFunction(
    (before) => document.getElementById('updated')?.dataset.at !== before,
    at,
    { timeout: 5_000 },
  );
}

describe('status page in headless Chromium', () => {
  before(async () => {
    node = await startNodeProcess({
      serverLines: ['pow_policy = { cuckatoo = 100 }'],
      p2pLines: ['seeding_type = "None"', 'peer_max_outbound_count = 0'],
    });
    secret = ownerSecret(node.home);
    for (let i = 0; i < 3; i++) await mineOne();
    peer = await EpicPeer.connect('127.0.0.1', p2pPortOf(node));
    peer.sendHand({ totalDifficulty: PEER_DIFF, capabilities: PEER_CAPS });
    await peer.expect('Shake', 3_000);
    peer.sendPing(PEER_DIFF, 0n);
    await pollUntil(
      async () => (await owner('get_connected_peers')) as Json[],
      (l) => l.length === 1,
      3_000,
    );
    mkdirSync(SHOTS, { recursive: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-dev-shm-usage'],
    });
  });
  after(async () => {
    await browser?.close();
    peer?.socket.destroy();
    await node?.stop();
    if (node !== undefined) removeHome(node.home);
  });

  it('asks for the owner credential as the owner API does; `/` keeps the route index', async () => {
    for (const path of ['/dashboard', '/dashboard/events']) {
      for (const auth of [undefined, basic('wrong'), basic(secret, 'admin')]) {
        const r = await fetch(
          `${node.url}${path}`,
          auth ? { headers: { authorization: auth } } : {},
        );
        assert.equal(r.status, 401, path);
        assert.equal(r.headers.get('www-authenticate'), 'Basic realm=NodeAPI');
        assert.equal(await r.text(), UNAUTHORIZED_BODY);
      }
    }
    const page = await fetch(`${node.url}/dashboard`, {
      headers: { authorization: basic(secret) },
    });
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(page.headers.get('cache-control'), 'no-store');
    assert.match(page.headers.get('content-security-policy') ?? '', /^default-src 'none'; /);
    const html = await page.text();
    assert.match(html, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
    assert.doesNotMatch(html, /https?:\/\//, 'the page names no other address');
    const index = await fetch(`${node.url}/`, { headers: { authorization: basic(secret) } });
    assert.equal(index.status, 200);
    assert.deepEqual(JSON.parse(await index.text()), [...ROUTE_INDEX]);
  });

  it("shows get_status's tip and sync, the peers, the pool and the last blocks", async () => {
    const { context, page, urls, errors } = await openPage({
      viewport: { width: 1280, height: 900 },
    });
    try {
      await nextSnapshot(page);
      const s = await status();
      const tip = s.tip as Json;
      assert.equal(await textOf(page, 'tip-height'), String(tip.height));
      assert.equal(await textOf(page, 'tip-hash'), tip.last_block_pushed);
      const shownDiff = await page
        .locator('#tip-difficulty dd')
        .evaluateAll((dds) =>
          dds.map((d) => [(d as unknown as PageElement).dataset.algo, d.textContent]),
        );
      const apiDiff = Object.entries(tip.total_difficulty as Json).map(([a, v]) => [a, String(v)]);
      // Both every algorithm once (get_status sorts the keys, the page keeps Epic's order).
      assert.equal(shownDiff.length, apiDiff.length);
      assert.deepEqual(Object.fromEntries(shownDiff), Object.fromEntries(apiDiff));
      assert.equal(await textOf(page, 'sync-status'), s.sync_status);
      assert.equal(await textOf(page, 'peer-count'), String(s.connections));
      assert.equal(
        await textOf(page, 'agent'),
        `${s.user_agent} \u00b7 protocol ${s.protocol_version}`,
      );

      const peers = (await owner('get_connected_peers')) as Json[];
      assert.equal(peers.length, 1);
      const p = peers[0] as Json;
      const rows = await page
        .locator('#peers tr')
        .evaluateAll((trs) =>
          trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
        );
      assert.deepEqual(rows, [
        [p.addr, p.direction, String(p.height), p.capabilities, p.user_agent],
      ]);
      assert.equal(p.direction, 'Inbound');
      assert.equal(p.capabilities, 'HEADER_HIST | PEER_LIST');
      assert.equal(await textOf(page, 'peer-in'), '1');
      assert.equal(await textOf(page, 'peer-out'), '0');

      assert.equal(
        await textOf(page, 'pool-size'),
        String(await foreignOk(node.url, 'get_pool_size', [])),
      );
      assert.equal(
        await textOf(page, 'stempool-size'),
        String(await foreignOk(node.url, 'get_stempool_size', [])),
      );

      // Newest first down to genesis (4 blocks), each as get_header prints it.
      const blocks = await page.locator('#blocks tr').evaluateAll((trs) =>
        trs.map((tr) => {
          const td = [...tr.querySelectorAll('td')];
          return {
            height: td[0]?.textContent,
            algorithm: td[1]?.textContent,
            time: td[2]?.getAttribute('title'),
            hash: td[4]?.getAttribute('title'),
          };
        }),
      );
      assert.equal(blocks.length, Number(tip.height) + 1);
      for (const [i, b] of blocks.entries()) {
        const h = (await foreignOk(node.url, 'get_header', [
          Number(tip.height) - i,
          null,
          null,
        ])) as Json;
        assert.deepEqual(b.height, String(h.height));
        assert.equal(b.hash, h.hash);
        assert.equal(b.time, h.timestamp);
      }
      assert.equal(blocks[0]?.hash, tip.last_block_pushed);
      await page.screenshot({ path: join(SHOTS, 'dashboard-desktop.png'), fullPage: true });
      // Nothing but the page and its stream was fetched, and nothing failed (a CSP refusal is a
      // console error).
      assert.deepEqual(
        [...new Set(urls)],
        [`${node.url}/dashboard`, `${node.url}/dashboard/events`],
      );
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  it("shows a new block's tip within one second of it, with the algorithm it counts under", async (t) => {
    const { context, page } = await openPage({ viewport: { width: 1280, height: 900 } });
    try {
      for (let i = 0; i < 2; i++) {
        const before = (await status()).tip as Json;
        const block = await mineBlock(node.url);
        const reply = await submit(node.url, block);
        const accepted = performance.now();
        assert.deepEqual(reply.body.result, { Ok: null });
        const tip = (await status()).tip as Json;
        assert.equal(tip.height, Number(before.height) + 1);
        const hash = String(tip.last_block_pushed);
        await page.waitForFunction(
          (want: string) => document.getElementById('tip-hash')?.textContent === want,
          hash,
          { timeout: 1_000 },
        );
        const shownAfterMs = performance.now() - accepted;
        assert.ok(shownAfterMs < 1_000, `shown ${shownAfterMs} ms after the block`);
        t.diagnostic(
          `block ${tip.height} shown ${Math.round(shownAfterMs)} ms after it was accepted`,
        );
        assert.equal(await textOf(page, 'tip-height'), String(tip.height));
        // The algorithm shown is the one whose total difficulty the block raised most (its own
        // difficulty; the others grow by their floor).
        const was = before.total_difficulty as Json;
        const now = tip.total_difficulty as Json;
        const gain = (a: string) => Number(now[a]) - Number(was[a]);
        const most = Object.keys(now).sort((a, b) => gain(b) - gain(a));
        assert.ok(gain(most[0] as string) > gain(most[1] as string), JSON.stringify([was, now]));
        const first = page.locator('#blocks tr').first().locator('td');
        assert.equal(await first.nth(1).textContent(), most[0]);
        assert.equal(await first.nth(0).textContent(), String(tip.height));
      }
    } finally {
      await context.close();
    }
  });

  it('counts exactly the API requests made, and fits a phone', async () => {
    const { context, page, errors } = await openPage({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    try {
      // A snapshot taken after this page's own requests: from here on only ours are counted.
      await nextSnapshot(page);
      const before = Number(await textOf(page, 'req-total'));
      const calls = 40;
      for (let i = 0; i < calls; i++) await status();
      await page.waitForFunction(
        (want) => Number(document.getElementById('req-total')?.textContent) >= want,
        before + calls,
        { timeout: 5_000 },
      );
      await nextSnapshot(page);
      assert.equal(Number(await textOf(page, 'req-total')), before + calls);
      assert.ok(Number(await textOf(page, 'req-rate')) > 0);

      // Phone: nothing wider than the screen but the tables' own scrolling boxes.
      const widths = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        screen: window.innerWidth,
      }));
      assert.deepEqual(widths, { page: 390, screen: 390 });
      assert.equal(await page.locator('#tip-height').isVisible(), true);
      const box = await page.locator('#tip-height').boundingBox();
      assert.ok(box !== null && box.x >= 0 && box.x + box.width <= 390);
      await page.screenshot({ path: join(SHOTS, 'dashboard-phone.png'), fullPage: true });
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});
