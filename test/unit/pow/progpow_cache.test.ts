// Per-epoch ProgPoW cache lifecycle (jobs/progpow_cache.ts): build once with progress, persist
// atomically, reload after a "restart" without building, reject and rebuild corrupted files,
// keep two epochs in memory, prune old files. One real epoch-0 build (seconds); the other
// epochs use a fake builder of the right size, which is all the store can check.
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { toHex } from '../../../core/bytes.js';
import {
  type BuildProgress,
  buildLightCache,
  cacheSize,
  progpowHash,
} from '../../../core/pow/progpow/index.js';
import {
  cacheFileName,
  type LightCacheBuilder,
  type ProgpowCacheEvent,
  ProgpowCacheStore,
  progpowCacheFor,
} from '../../../jobs/progpow_cache.js';

const root = mkdtempSync(join(tmpdir(), 'progpow-cache-'));
after(() => rmSync(root, { recursive: true, force: true }));

interface Counted {
  readonly build: LightCacheBuilder;
  readonly calls: number[];
}

function counting(inner: LightCacheBuilder): Counted {
  const calls: number[] = [];
  return {
    calls,
    build: (epoch: number, onProgress: BuildProgress) => {
      calls.push(epoch);
      return inner(epoch, onProgress);
    },
  };
}

/** Right-sized, deterministic, cheap stand-in for a light cache. */
const fakeBuild: LightCacheBuilder = (epoch, onProgress) => {
  const words = new Uint32Array(cacheSize(epoch) / 4);
  for (let i = 0; i < words.length; i += 1024) words[i] = (i ^ epoch) >>> 0;
  onProgress(1, 1);
  return words;
};

function store(dir: string, build: LightCacheBuilder, events: ProgpowCacheEvent[] = []) {
  return new ProgpowCacheStore({ dir, build, onEvent: (e) => events.push(e) });
}

const bytesOf = (w: Uint32Array) => Buffer.from(w.buffer, w.byteOffset, w.byteLength);

describe('epoch-0 cache: build, persist, reload, corruption', () => {
  const dir = join(root, 'real');
  const file = join(dir, cacheFileName(0));
  let built: Uint32Array | undefined;

  it('builds once with progress, persists atomically, serves repeats from memory', () => {
    const counted = counting(buildLightCache);
    const events: ProgpowCacheEvent[] = [];
    const s = store(dir, counted.build, events);
    const start = performance.now();
    const c = s.get(0);
    console.log(`epoch 0 build + persist: ${(performance.now() - start).toFixed(0)} ms`);
    built = c.cache;
    assert.deepEqual(counted.calls, [0]);
    assert.equal(c.cdag[0], 690150178);
    const progress = events.filter((e) => e.kind === 'build-progress');
    assert.ok(progress.length >= 10, `only ${progress.length} progress events`);
    const last = progress.at(-1);
    assert.ok(last !== undefined && last.done === last.total);
    assert.deepEqual(
      events.filter((e) => e.kind !== 'build-progress').map((e) => e.kind),
      ['build-start', 'build-done', 'persisted'],
    );
    assert.equal(statSync(file).size, 64 + 16776896);
    assert.deepEqual(readdirSync(dir), [cacheFileName(0)], 'no temp file left behind');
    assert.equal(s.get(0), c);
    assert.deepEqual(counted.calls, [0]);
  });

  it('a restarted store loads the file without calling the builder', () => {
    const counted = counting(buildLightCache);
    const events: ProgpowCacheEvent[] = [];
    const c = store(dir, counted.build, events).forHeight(29_999n);
    assert.deepEqual(counted.calls, []);
    assert.deepEqual(
      events.map((e) => e.kind),
      ['loaded'],
    );
    assert.ok(built !== undefined && bytesOf(c.cache).equals(bytesOf(built)));
    const r = progpowHash(c, new Uint8Array(32), 0, 0n);
    assert.equal(toHex(r.mix), 'faeb1be51075b03a4ff44b335067951ead07a3b078539ace76fd56fc410557a3');
  });

  it('a flipped payload bit is rejected (hash) and the epoch rebuilt and rewritten', () => {
    const bytes = readFileSync(file);
    bytes[64 + 1_000_000] ^= 0x10;
    writeFileSync(file, bytes);
    // The rebuild may as well be fake: what is under test is that it happens.
    const counted = counting(fakeBuild);
    const events: ProgpowCacheEvent[] = [];
    const c = store(dir, counted.build, events).get(0);
    assert.deepEqual(counted.calls, [0]);
    assert.deepEqual(events[0], { kind: 'rejected', epoch: 0, reason: 'hash mismatch' });
    assert.deepEqual(events.at(-1)?.kind, 'persisted');
    const again = counting(fakeBuild);
    const reloaded = store(dir, again.build).get(0);
    assert.deepEqual(again.calls, [], 'the rewritten file loads');
    assert.ok(bytesOf(reloaded.cache).equals(bytesOf(c.cache)));
  });

  it('a truncated file or a foreign header is rejected', () => {
    const good = readFileSync(file);
    writeFileSync(file, good.subarray(0, good.length - 64));
    const events: ProgpowCacheEvent[] = [];
    const counted = counting(fakeBuild);
    store(dir, counted.build, events).get(0);
    assert.deepEqual(events[0], { kind: 'rejected', epoch: 0, reason: 'wrong size' });
    assert.deepEqual(counted.calls, [0]);
    const bad = Buffer.from(good);
    bad.write('NOTMINE!', 0, 'latin1');
    writeFileSync(file, bad);
    const events2: ProgpowCacheEvent[] = [];
    store(dir, fakeBuild, events2).get(0);
    assert.deepEqual(events2[0], { kind: 'rejected', epoch: 0, reason: 'bad magic' });
  });
});

describe('memory and files across epochs (fake builder)', () => {
  it('keeps the two most recently used epochs in memory', () => {
    const counted = counting(fakeBuild);
    const s = store(join(root, 'lru'), counted.build);
    s.get(0);
    s.get(1);
    assert.deepEqual(s.inMemory(), [1, 0]);
    s.get(0);
    assert.deepEqual(s.inMemory(), [0, 1]);
    s.get(2);
    assert.deepEqual(s.inMemory(), [2, 0]);
    assert.deepEqual(counted.calls, [0, 1, 2]);
  });

  it('prunes files older than the previous epoch, and stale temp files, on persisting', () => {
    const dir = join(root, 'prune');
    const s = store(dir, fakeBuild);
    const stale = `${cacheFileName(4)}.999-1.tmp`;
    const fresh = `${cacheFileName(5)}.999-2.tmp`;
    writeFileSync(join(dir, stale), 'half');
    writeFileSync(join(dir, fresh), 'in progress');
    utimesSync(join(dir, stale), new Date(0), new Date(0));
    for (const e of [3, 4, 5]) s.get(e);
    assert.deepEqual(readdirSync(dir).sort(), [cacheFileName(4), cacheFileName(5), fresh]);
  });

  it('a failed write is reported and the cache still served', () => {
    const dir = join(root, 'unwritable');
    const events: ProgpowCacheEvent[] = [];
    const s = store(dir, fakeBuild, events);
    rmSync(dir, { recursive: true });
    writeFileSync(dir, 'not a directory');
    const c = s.get(7);
    assert.equal(c.epoch, 7);
    assert.ok(events.some((e) => e.kind === 'persist-failed'));
    assert.equal(existsSync(join(dir, cacheFileName(7))), false);
  });

  it('one store per directory per thread, and one memory-only store', () => {
    const dir = join(root, 'shared');
    assert.equal(progpowCacheFor(dir), progpowCacheFor(dir));
    assert.notEqual(progpowCacheFor(dir), progpowCacheFor(join(root, 'other')));
    assert.equal(progpowCacheFor(null), progpowCacheFor(null));
    assert.notEqual(progpowCacheFor(null), progpowCacheFor(dir));
  });

  it('without a directory: builds once per epoch, keeps two in memory, writes nothing', () => {
    const counted = counting(fakeBuild);
    const events: ProgpowCacheEvent[] = [];
    const s = new ProgpowCacheStore({
      dir: null,
      build: counted.build,
      onEvent: (e) => events.push(e),
    });
    const first = s.get(3);
    assert.equal(s.get(3), first);
    s.get(4);
    s.get(5);
    assert.deepEqual(s.inMemory(), [5, 4]);
    assert.deepEqual(counted.calls, [3, 4, 5]);
    assert.deepEqual(
      events.map((e) => e.kind),
      [
        'build-start',
        'build-progress',
        'build-done',
        'build-start',
        'build-progress',
        'build-done',
        'build-start',
        'build-progress',
        'build-done',
      ],
    );
  });
});
