// Epic's stratum protocol as pure code (core/stratum/): which lines are requests (the rest close
// the connection), exact reply and push lines, the job and status objects in Epic's key order,
// and the params read as serde reads them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CHAIN_PARAMS } from '../../../core/chain_type.js';
import { announcedEpochs } from '../../../core/consensus/seed.js';
import { genesisHeader } from '../../../core/genesis.js';
import { parseJson } from '../../../core/json/parse.js';
import { stringifyJson } from '../../../core/json/stringify.js';
import type { JsonValue } from '../../../core/json/value.js';
import { prePow as headerPrePow } from '../../../core/ser/header.js';
import {
  jobText,
  type StratumJob,
  shareDifficulty,
  statusJson,
  stratumJob,
} from '../../../core/stratum/job.js';
import { INVALID, LineSplitter, OVERLONG } from '../../../core/stratum/lines.js';
import { jobParams, loginParams, powText, submitParams } from '../../../core/stratum/params.js';
import { parseRequest, pushLine, replyLine, STRATUM_ERRORS } from '../../../core/stratum/rpc.js';
import { edgeBitsAccepted, JobVersions, judgeShare } from '../../../core/stratum/shares.js';
import type { Proof } from '../../../core/types/pow.js';

describe('stratum requests and replies', () => {
  it('takes requests with an i64 or string id, jsonrpc and method; params optional', () => {
    assert.deepEqual(parseRequest('{"id":"0","jsonrpc":"2.0","method":"login","params":{"a":1}}'), {
      id: '0',
      method: 'login',
      params: { a: 1 },
    });
    assert.deepEqual(parseRequest(' {"id":7,"jsonrpc":"x","method":"keepalive"} '), {
      id: 7n,
      method: 'keepalive',
      params: undefined,
    });
    assert.deepEqual(
      parseRequest('{"id":-9223372036854775808,"jsonrpc":"","method":"m","params":null}'),
      {
        id: -(1n << 63n),
        method: 'm',
        params: undefined,
      },
    );
    // serde also reads a struct from an array of its fields.
    assert.deepEqual(parseRequest('[1,"2.0","keepalive",null]'), {
      id: 1n,
      method: 'keepalive',
      params: undefined,
    });
  });

  it('refuses every other line (Epic closes the connection without a reply)', () => {
    for (const line of [
      '',
      '   ',
      '{"id":10,"method":"keepalive"}',
      '{"jsonrpc":"2.0","method":"keepalive"}',
      '{"id":null,"jsonrpc":"2.0","method":"keepalive"}',
      '{"id":true,"jsonrpc":"2.0","method":"keepalive"}',
      '{"id":1.5,"jsonrpc":"2.0","method":"keepalive"}',
      '{"id":9223372036854775808,"jsonrpc":"2.0","method":"keepalive"}',
      '{"id":{},"jsonrpc":"2.0","method":"keepalive"}',
      '{"id":1,"jsonrpc":2,"method":"keepalive"}',
      '{"id":1,"jsonrpc":"2.0","method":["keepalive"]}',
      '{"id":1,"jsonrpc":"2.0","method":"keepalive"} x',
      '[1,"2.0","keepalive"]',
      '"keepalive"',
      '{"id":1,"jsonrpc":"2.0",',
    ])
      assert.equal(parseRequest(line), null, line);
  });

  it('prints replies and pushes as Epic does: id kept, method echoed, both result and error', () => {
    assert.equal(
      replyLine({ id: '0', method: 'login' }, { result: 'ok' }),
      '{"id":"0","jsonrpc":"2.0","method":"login","result":"ok","error":null}',
    );
    assert.equal(
      replyLine({ id: 9n, method: 'mining.subscribe' }, { error: STRATUM_ERRORS.methodNotFound }),
      '{"id":9,"jsonrpc":"2.0","method":"mining.subscribe","result":null,"error":{"code":-32601,"message":"Method not found"}}',
    );
    assert.equal(
      replyLine({ id: 'a"b', method: 'submit' }, { error: STRATUM_ERRORS.internal }),
      '{"id":"a\\"b","jsonrpc":"2.0","method":"submit","result":null,"error":{"code":32603,"message":"Internal error"}}',
    );
    assert.equal(
      pushLine('job', { height: 3n }),
      '{"id":"Stratum","jsonrpc":"2.0","method":"job","params":{"height":3}}',
    );
    assert.deepEqual(
      Object.values(STRATUM_ERRORS).map((e) => [e.code, e.message]),
      [
        [32603, 'Internal error'],
        [-32000, 'Node is syncing - Please wait'],
        [-32601, 'Method not found'],
        [-32503, 'Solution submitted too late'],
        [-32502, 'Failed to validate solution'],
        [-32501, 'Share rejected due to low difficulty'],
        [-32600, 'Invalid Request'],
      ],
    );
  });
});

describe('stratum jobs and status', () => {
  const seed = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
  const prePow = Uint8Array.from({ length: 274 }, (_, i) => i % 256);
  const job: StratumJob = {
    height: 1061n,
    jobId: 2n,
    algorithm: 'randomx',
    shareDifficulty: { cuckatoo: 3n, randomx: 4000n, progpow: 200000n },
    blockDifficulty: {
      cuckaroo: 1n,
      cuckatoo: 16384n,
      randomx: 18446744073709551615n,
      progpow: 9n,
    },
    prePow,
    epochs: announcedEpochs(1061n).map((e) => ({ start: e.start, end: e.end, seed })),
  };

  it('prints a job with its keys in Epic’s order, the pre-pow as 548 hex digits', () => {
    const seedList = `[${[...seed].join(',')}]`;
    const hex = Buffer.from(prePow).toString('hex');
    assert.equal(hex.length, 548);
    assert.equal(
      jobText(job),
      '{"algorithm":"randomx",' +
        '"block_difficulty":[["cuckoo",16384],["randomx",18446744073709551615],["progpow",9]],' +
        '"difficulty":[["cuckoo",3],["randomx",4000],["progpow",200000]],' +
        // At k·1000 + 61 Epic announces the current epoch twice.
        `"epochs":[[1060,2060,${seedList}],[1060,2060,${seedList}]],` +
        `"height":1061,"job_id":2,"pre_pow":"${hex}"}`,
    );
    assert.deepEqual(
      announcedEpochs(1060n).map((e) => [e.start, e.end, e.seedHeight]),
      [
        [0n, 1060n, 0n],
        [1060n, 2060n, 1000n],
      ],
    );
    assert.deepEqual(
      announcedEpochs(1062n).map((e) => [e.start, e.end, e.seedHeight]),
      [[1060n, 2060n, 1000n]],
    );
  });

  it('builds a job from a header: the pre-pow without its nonce, seeds by height', () => {
    const params = CHAIN_PARAMS.mainnet;
    const header = { ...genesisHeader('mainnet'), height: 2001n };
    const full = headerPrePow(header, params);
    const seeds = new Map<bigint, Uint8Array>([
      [1000n, new Uint8Array(32).fill(10)],
      [2000n, new Uint8Array(32).fill(20)],
    ]);
    const built = stratumJob(
      {
        header,
        algorithm: 'progpow',
        blockDifficulty: { cuckatoo: 5n, randomx: 5000n, progpow: 100n },
        jobId: 0n,
        minimums: { cuckatoo: 3n, randomx: 4000n, progpow: 200000n },
        hashAt: (h) => seeds.get(h) as Uint8Array,
      },
      params,
    );
    assert.equal(full.length, 282);
    assert.equal(built.prePow.length, 274);
    assert.deepEqual(built.prePow, full.subarray(0, 274));
    assert.equal(Buffer.from(built.prePow.subarray(0, 10)).toString('hex'), '000600000000000007d1');
    assert.deepEqual(built.shareDifficulty, {
      cuckaroo: 3n,
      cuckatoo: 3n,
      randomx: 4000n,
      progpow: 100n,
    });
    assert.deepEqual(built.epochs, [
      { start: 1060n, end: 2060n, seed: seeds.get(1000n) },
      { start: 2060n, end: 3060n, seed: seeds.get(2000n) },
    ]);
    assert.equal(built.height, 2001n);
    assert.equal(built.algorithm, 'progpow');
  });

  it('caps each share minimum at the block’s difficulty', () => {
    const min = { cuckatoo: 3n, randomx: 4000n, progpow: 200000n };
    assert.deepEqual(
      shareDifficulty(min, { cuckaroo: 2n, cuckatoo: 1n, randomx: 5000n, progpow: 200000n }),
      { cuckaroo: 2n, cuckatoo: 1n, randomx: 4000n, progpow: 200000n },
    );
    assert.deepEqual(shareDifficulty(min, {}), {
      cuckaroo: 3n,
      cuckatoo: 3n,
      randomx: 4000n,
      progpow: 200000n,
    });
  });

  it('prints status in Epic’s order, difficulty always 1, the id the worker’s index', () => {
    assert.equal(
      stringifyJson(statusJson({ id: 4, height: 102n, accepted: 2n, rejected: 1n, stale: 3n })),
      '{"accepted":2,"difficulty":1,"height":102,"id":"4","rejected":1,"stale":3}',
    );
  });
});

describe('stratum params', () => {
  it('prints submit proofs in the form it reads, u64 nonces exact', () => {
    const bytes = Uint8Array.from({ length: 32 }, (_, i) => i * 7);
    const proofs: [Proof, string][] = [
      [
        { kind: 'Cuckoo', edgeBits: 31, nonces: [1n, 18446744073709551615n] },
        '{"Cuckoo":[31,[1,18446744073709551615]]}',
      ],
      [{ kind: 'RandomX', hash: bytes }, `{"RandomX":[${[...bytes].join(',')}]}`],
      [{ kind: 'ProgPow', mix: bytes }, `{"ProgPow":[${[...bytes].join(',')}]}`],
    ];
    for (const [proof, text] of proofs) {
      assert.equal(powText(proof), text);
      const line = `{"height":7,"job_id":2,"nonce":9,"pow":${text}}`;
      assert.deepEqual(submitParams(parseJson(line))?.pow, proof);
    }
    assert.throws(() => powText({ kind: 'MD5', edgeBits: 0, proof: '' }), /no stratum form/);
  });

  it('reads login and getjobtemplate params by name or in order; all strings, all there', () => {
    assert.deepEqual(loginParams({ login: 'a', pass: 'p', agent: 'g', extra: 1 }), {
      login: 'a',
      pass: 'p',
      agent: 'g',
    });
    assert.deepEqual(loginParams(['a', 'p', 'g']), { login: 'a', pass: 'p', agent: 'g' });
    assert.equal(loginParams({ login: 'a', pass: 'p' }), undefined);
    assert.equal(loginParams({ login: 'a', pass: 1, agent: 'g' }), undefined);
    assert.equal(loginParams(undefined), undefined);
    assert.deepEqual(jobParams({ algorithm: 'anything' }), { algorithm: 'anything' });
    assert.equal(jobParams({}), undefined);
    assert.equal(jobParams({ algorithm: null }), undefined);
  });

  it('reads submit params with each proof shape, u64s exact', () => {
    const nonces = Array.from({ length: 42 }, (_, i) => BigInt(i * 1000));
    assert.deepEqual(
      submitParams({
        height: 101,
        job_id: 1,
        nonce: 18446744073709551615n,
        pow: { Cuckoo: [275, nonces] },
      }),
      {
        height: 101n,
        jobId: 1n,
        nonce: 18446744073709551615n,
        pow: { kind: 'Cuckoo', edgeBits: 19, nonces },
      },
    );
    const bytes = Array.from({ length: 32 }, (_, i) => 255 - i);
    assert.deepEqual(submitParams([5, 0, 7, { RandomX: bytes }])?.pow, {
      kind: 'RandomX',
      hash: Uint8Array.from(bytes),
    });
    assert.deepEqual(
      submitParams({ height: 5, job_id: 0, nonce: 7, pow: { ProgPow: bytes } })?.pow,
      {
        kind: 'ProgPow',
        mix: Uint8Array.from(bytes),
      },
    );
    const base = { height: 5, job_id: 0, nonce: 7 };
    const bad: JsonValue[] = [
      { RandomX: bytes.slice(1) },
      { RandomX: [...bytes.slice(1), 256] },
      { RandomX: 'ab'.repeat(32) },
      { randomx: bytes },
      { RandomX: bytes, ProgPow: bytes },
      { Cuckoo: [19, [1, -1]] },
      { Cuckoo: [19] },
      { Cuckoo: [-1, [1]] },
      {},
    ];
    for (const pow of bad)
      assert.equal(submitParams({ ...base, pow }), undefined, JSON.stringify(pow));
    assert.equal(
      submitParams({ ...base, nonce: 18446744073709551616n, pow: { RandomX: bytes } }),
      undefined,
    );
    assert.equal(submitParams({ ...base, height: -1, pow: { RandomX: bytes } }), undefined);
    assert.equal(submitParams({ ...base, job_id: '0', pow: { RandomX: bytes } }), undefined);
    assert.equal(submitParams({ height: 5, job_id: 0, pow: { RandomX: bytes } }), undefined);
  });
});

describe('stratum lines', () => {
  const enc = (s: string) => Buffer.from(s, 'utf8');

  it('cuts lines across chunks, drops one CR before the LF, holds the unfinished rest', () => {
    const s = new LineSplitter(64);
    assert.deepEqual(s.push(enc('{"a":1}\n{"b"')), ['{"a":1}']);
    assert.equal(s.held, 4);
    assert.deepEqual(s.push(enc(':2}\r\n\r\n\n')), ['{"b":2}', '', '']);
    assert.deepEqual(s.push(enc('x\r\r\n')), ['x\r']);
    assert.deepEqual(s.push(enc('é€\n')), ['é€']);
    assert.equal(s.held, 0);
  });

  it('reports an over-long line once, skips it to its newline, then goes on', () => {
    const s = new LineSplitter(8);
    assert.deepEqual(s.push(enc('12345678\n')), ['12345678']);
    assert.deepEqual(s.push(enc('123456')), []);
    assert.deepEqual(s.push(enc('789')), [OVERLONG]);
    assert.equal(s.held, 0, 'nothing of it is kept');
    assert.deepEqual(s.push(enc('x'.repeat(100))), []);
    assert.deepEqual(s.push(enc('yy\nok\n')), ['ok']);
    assert.deepEqual(s.push(enc('z'.repeat(9))), [OVERLONG]);
    assert.deepEqual(s.push(enc('\n')), []);
  });

  it('reports a line that is not UTF-8, and the next line is read as usual', () => {
    const s = new LineSplitter(64);
    assert.deepEqual(s.push(Uint8Array.from([0x7b, 0xff, 0x7d, 10, 0x61, 10])), [INVALID, 'a']);
  });
});

describe('stratum share decisions', () => {
  const cuckatoo = (edgeBits: number): Proof => ({ kind: 'Cuckoo', edgeBits, nonces: [1n] });
  const randomx: Proof = { kind: 'RandomX', hash: new Uint8Array(32) };
  const progpow: Proof = { kind: 'ProgPow', mix: new Uint8Array(32) };

  it('takes the Cuckoo sizes the chain does', () => {
    const mainnet = CHAIN_PARAMS.mainnet;
    assert.equal(edgeBitsAccepted(cuckatoo(19), mainnet), true);
    assert.equal(edgeBitsAccepted(cuckatoo(31), mainnet), true);
    assert.equal(edgeBitsAccepted(cuckatoo(18), mainnet), false);
    assert.equal(edgeBitsAccepted(cuckatoo(9), CHAIN_PARAMS.automated), true);
    assert.equal(edgeBitsAccepted(cuckatoo(8), CHAIN_PARAMS.automated), false);
    assert.equal(edgeBitsAccepted(randomx, mainnet), true);
  });

  it('judges a verified proof: low, block of the job’s algorithm, or share', () => {
    const job = {
      algorithm: 'randomx' as const,
      shareDifficulty: { cuckaroo: 2n, cuckatoo: 3n, randomx: 4000n, progpow: 100n },
      blockDifficulty: { cuckaroo: 20n, cuckatoo: 30n, randomx: 9000n, progpow: 1000n },
    };
    assert.equal(judgeShare(randomx, 3999n, job), 'low');
    assert.equal(judgeShare(randomx, 4000n, job), 'share');
    assert.equal(judgeShare(randomx, 8999n, job), 'share');
    assert.equal(judgeShare(randomx, 9000n, job), 'block');
    // Another algorithm than the job's is a share at most.
    assert.equal(judgeShare(progpow, 99n, job), 'low');
    assert.equal(judgeShare(progpow, 5000n, job), 'share');
    const cuckooJob = { ...job, algorithm: 'cuckoo' as const };
    assert.equal(judgeShare(cuckatoo(31), 2n, cuckooJob), 'low');
    assert.equal(judgeShare(cuckatoo(31), 30n, cuckooJob), 'block');
    // A 9-bit Cuckoo proof is booked as Cuckaroo, and still mines a "cuckoo" job.
    assert.equal(judgeShare(cuckatoo(9), 2n, cuckooJob), 'share');
    assert.equal(judgeShare(cuckatoo(9), 20n, cuckooJob), 'block');
  });
});

describe('stratum job versions', () => {
  it('numbers versions per height from 0, keeps the last few, and forgets a height once it moves', () => {
    const v = new JobVersions<string>(3);
    assert.equal(v.height, -1n);
    assert.equal(v.latest(), undefined);
    const named = (name: string) => (id: bigint) => `${name}${id}`;
    assert.equal(v.add(10n, named('a')), 'a0');
    assert.equal(v.add(10n, named('b')), 'b1');
    assert.equal(v.add(10n, named('c')), 'c2');
    assert.equal(v.add(10n, named('d')), 'd3');
    assert.deepEqual(
      [0n, 1n, 2n, 3n, 4n].map((id) => v.get(10n, id)),
      [undefined, 'b1', 'c2', 'd3', undefined],
    );
    assert.equal(v.latest(), 'd3');
    assert.equal(v.get(9n, 1n), undefined);
    assert.equal(v.add(11n, named('e')), 'e0');
    assert.equal(v.height, 11n);
    assert.equal(v.get(10n, 3n), undefined);
    assert.equal(v.get(11n, 0n), 'e0');
    assert.equal(v.latest(), 'e0');
  });
});
