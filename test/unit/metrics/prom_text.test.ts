// The strict Prometheus text parser of test/support: what it accepts, and that it refuses each
// kind of malformed exposition (each refusal below is one rule the e2e tests rely on).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PromTextError, parsePromText, sampleValue } from '../../support/prom_text.js';

const GOOD = `# HELP a_total Things, with "quotes" and a \\\\ backslash
# TYPE a_total counter
a_total{route="/v1/x",status="200"} 3
a_total{route="/v2/\\"q\\"",status="401"} 1e3

# TYPE h histogram
h_bucket{le="0.1"} 1
h_bucket{le="+Inf"} 2
h_sum 0.25
h_count 2
# a comment
g -Inf 1700000000000
n Nan
`;

describe('parsePromText', () => {
  it('reads families, types, help, labels with escapes, values and timestamps', () => {
    const f = parsePromText(GOOD);
    assert.deepEqual([...f.keys()], ['a_total', 'h', 'g', 'n']);
    assert.ok(Number.isNaN(sampleValue(f, 'n')));
    assert.equal(f.get('a_total')?.type, 'counter');
    assert.equal(f.get('a_total')?.help, 'Things, with "quotes" and a \\\\ backslash');
    assert.equal(sampleValue(f, 'a_total', { route: '/v1/x', status: '200' }), 3);
    assert.equal(sampleValue(f, 'a_total', { status: '401', route: '/v2/"q"' }), 1000);
    assert.equal(sampleValue(f, 'h_count'), 2);
    assert.equal(f.get('g')?.type, 'untyped');
    assert.equal(sampleValue(f, 'g'), Number.NEGATIVE_INFINITY);
    assert.equal(sampleValue(f, 'a_total', { route: '/v1/x' }), undefined);
  });

  const bad: readonly [string, string, RegExp][] = [
    ['no final newline', 'a 1', /no final newline/],
    ['bad metric name', '1a 1\n', /bad metric name/],
    ['bad label name', 'a{1x="v"} 1\n', /bad label name/],
    ['unquoted label value', 'a{x=v} 1\n', /not quoted/],
    ['bad escape', 'a{x="\\t"} 1\n', /bad escape/],
    ['unterminated value', 'a{x="v} 1\n', /unterminated/],
    ['label twice', 'a{x="1",x="2"} 1\n', /twice/],
    ['bad value', 'a 0x10\n', /bad value/],
    ['bad special value', 'a nanx\n', /bad value/],
    ['missing value', 'a\n', /without value/],
    ['two spaces', 'a  1\n', /bad value\/timestamp/],
    ['bad timestamp', 'a 1 1.5\n', /bad timestamp/],
    ['bad type', '# TYPE a countr\na 1\n', /bad TYPE/],
    ['type after samples', 'a 1\n# TYPE a counter\n', /after its samples/],
    ['help twice', '# HELP a x\n# HELP a y\n', /HELP twice/],
    ['duplicate series', 'a{x="1"} 1\na{x="1"} 2\n', /twice/],
    ['split family', 'a 1\nb 1\na{x="2"} 1\n', /not together/],
    ['no +Inf bucket', '# TYPE h histogram\nh_bucket{le="1"} 1\nh_count 1\n', /\+Inf/],
    [
      'buckets not cumulative',
      '# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_count 1\n',
      /cumulative/,
    ],
    [
      'count unlike +Inf',
      '# TYPE h histogram\nh_bucket{le="+Inf"} 2\nh_count 3\n',
      /_count is not/,
    ],
  ];
  for (const [what, text, message] of bad)
    it(`refuses: ${what}`, () => {
      assert.throws(
        () => parsePromText(text),
        (e: unknown) => {
          assert.ok(e instanceof PromTextError);
          assert.match(e.message, message);
          return true;
        },
      );
    });
});
