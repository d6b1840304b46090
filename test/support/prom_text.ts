// A strict reader of the Prometheus text exposition format 0.0.4, for tests of `/metrics`:
// anything a Prometheus server would refuse, or that breaks the format's rules loosely applied
// by servers (a family's samples split up, TYPE after samples, duplicate series, histogram
// buckets not cumulative or without +Inf, _count unlike the +Inf bucket), is an error naming the
// line. Unit tests: test/unit/prom_text.test.ts.

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

export interface Sample {
  /** The sample's own name (`x_bucket`, `x_sum`, … for a histogram `x`). */
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface Family {
  readonly name: string;
  readonly type: MetricType;
  readonly help: string | null;
  readonly samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES: readonly MetricType[] = ['counter', 'gauge', 'histogram', 'summary', 'untyped'];
const SUFFIXES: Readonly<Record<MetricType, readonly string[]>> = {
  counter: [''],
  gauge: [''],
  untyped: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

export class PromTextError extends Error {}

function fail(line: number, message: string): never {
  throw new PromTextError(`line ${line}: ${message}`);
}

/**
 * The forms of Go's ParseFloat that Prometheus reads values with: decimals, and `NaN`, `Inf`,
 * `Infinity` in any case with an optional sign (prom-client prints NaN as `Nan`); nothing else
 * (no hex, no `1_000`, no '').
 */
function parseValue(text: string, line: number): number {
  const special = /^([+-]?)(inf|infinity|nan)$/i.exec(text);
  if (special !== null) {
    if ((special[2] as string).toLowerCase() === 'nan') return Number.NaN;
    return special[1] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) fail(line, `bad value ${text}`);
  return Number(text);
}

/** `{a="x",b="y"}` from `at` (the `{`); returns the labels and the index after `}`. */
function parseLabels(s: string, at: number, line: number): [Record<string, string>, number] {
  const labels: Record<string, string> = {};
  let i = at + 1;
  while (s[i] !== '}') {
    const eq = s.indexOf('=', i);
    if (eq < 0) fail(line, 'label without =');
    const name = s.slice(i, eq);
    if (!LABEL_NAME.test(name)) fail(line, `bad label name ${JSON.stringify(name)}`);
    if (Object.hasOwn(labels, name)) fail(line, `label ${name} twice`);
    if (s[eq + 1] !== '"') fail(line, `label ${name}: value not quoted`);
    let value = '';
    let j = eq + 2;
    for (;;) {
      const c = s[j];
      if (c === undefined) fail(line, `label ${name}: unterminated value`);
      if (c === '"') break;
      if (c === '\\') {
        const e = s[j + 1];
        if (e === '\\') value += '\\';
        else if (e === '"') value += '"';
        else if (e === 'n') value += '\n';
        else fail(line, `label ${name}: bad escape \\${e ?? ''}`);
        j += 2;
        continue;
      }
      value += c;
      j++;
    }
    labels[name] = value;
    i = j + 1;
    if (s[i] === ',') i++;
    else if (s[i] !== '}') fail(line, `label ${name}: expected , or }`);
  }
  return [labels, i + 1];
}

function parseSample(s: string, line: number): Sample {
  const brace = s.indexOf('{');
  const space = s.indexOf(' ');
  let name: string;
  let labels: Record<string, string> = {};
  let rest: string;
  if (brace >= 0 && (space < 0 || brace < space)) {
    name = s.slice(0, brace);
    let end: number;
    [labels, end] = parseLabels(s, brace, line);
    if (s[end] !== ' ') fail(line, 'expected a space after the labels');
    rest = s.slice(end + 1);
  } else {
    if (space < 0) fail(line, 'sample without value');
    name = s.slice(0, space);
    rest = s.slice(space + 1);
  }
  if (!METRIC_NAME.test(name)) fail(line, `bad metric name ${JSON.stringify(name)}`);
  const parts = rest.split(' ');
  if (parts.length > 2 || parts.some((p) => p === '')) fail(line, 'bad value/timestamp field');
  if (parts.length === 2 && !/^-?\d+$/.test(parts[1] as string)) fail(line, 'bad timestamp');
  return { name, labels, value: parseValue(parts[0] as string, line) };
}

function familyOf(sampleName: string, families: ReadonlyMap<string, Family>): Family | undefined {
  for (const suffix of ['', '_bucket', '_sum', '_count']) {
    if (!sampleName.endsWith(suffix)) continue;
    const f = families.get(sampleName.slice(0, sampleName.length - suffix.length));
    if (f !== undefined && SUFFIXES[f.type].includes(suffix)) return f;
  }
  return undefined;
}

function seriesKey(s: Sample): string {
  const keys = Object.keys(s.labels).sort();
  return `${s.name}{${keys.map((k) => `${k}=${JSON.stringify(s.labels[k])}`).join(',')}}`;
}

/** Cumulative buckets, a +Inf bucket, and _count equal to it, per label set. */
function checkHistogram(f: Family): void {
  const groups = new Map<string, { buckets: [number, number][]; count?: number }>();
  for (const s of f.samples) {
    const { le, ...rest } = s.labels;
    const key = seriesKey({ name: '', labels: rest, value: 0 });
    let g = groups.get(key);
    if (g === undefined) {
      g = { buckets: [] };
      groups.set(key, g);
    }
    if (s.name.endsWith('_bucket')) {
      if (le === undefined) throw new PromTextError(`${f.name}: bucket without le`);
      g.buckets.push([parseValue(le, 0), s.value]);
    } else if (le !== undefined) throw new PromTextError(`${f.name}: le on ${s.name}`);
    else if (s.name.endsWith('_count')) g.count = s.value;
  }
  for (const [key, g] of groups) {
    const sorted = [...g.buckets].sort((a, b) => a[0] - b[0]);
    const inf = sorted.at(-1);
    if (inf === undefined || inf[0] !== Number.POSITIVE_INFINITY)
      throw new PromTextError(`${f.name}${key}: no +Inf bucket`);
    for (let i = 1; i < sorted.length; i++)
      if ((sorted[i] as [number, number])[1] < (sorted[i - 1] as [number, number])[1])
        throw new PromTextError(`${f.name}${key}: buckets not cumulative`);
    if (g.count !== inf[1])
      throw new PromTextError(`${f.name}${key}: _count is not the +Inf bucket`);
  }
}

/** Parses a whole exposition; throws PromTextError at the first thing out of the format. */
export function parsePromText(text: string): Map<string, Family> {
  if (text.length > 0 && !text.endsWith('\n')) throw new PromTextError('no final newline');
  const families = new Map<string, Family>();
  const seen = new Set<string>();
  let current: Family | null = null;
  const declared = (name: string, line: number): Family => {
    let f = families.get(name);
    if (f === undefined) {
      f = { name, type: 'untyped', help: null, samples: [] };
      families.set(name, f);
    } else if (f.samples.length > 0) fail(line, `${name}: HELP or TYPE after its samples`);
    return f;
  };
  const lines = text.split('\n');
  lines.pop();
  lines.forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === '') return;
    if (raw.startsWith('#')) {
      const m = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(raw);
      if (m === null) return; // a plain comment
      const [, kind, name, rest = ''] = m as unknown as [string, string, string, string?];
      if (!METRIC_NAME.test(name)) fail(line, `bad metric name ${name}`);
      const f = declared(name, line) as { -readonly [K in keyof Family]: Family[K] };
      if (kind === 'HELP') {
        if (f.help !== null) fail(line, `${name}: HELP twice`);
        f.help = rest;
      } else {
        if (!TYPES.includes(rest as MetricType)) fail(line, `${name}: bad TYPE ${rest}`);
        if (f.type !== 'untyped' || f.samples.length > 0) fail(line, `${name}: TYPE twice or late`);
        f.type = rest as MetricType;
      }
      return;
    }
    const sample = parseSample(raw, line);
    let f = familyOf(sample.name, families);
    if (f === undefined) {
      f = { name: sample.name, type: 'untyped', help: null, samples: [] };
      families.set(sample.name, f);
    } else if (f !== current && f.samples.length > 0)
      fail(line, `${f.name}: its samples are not together`);
    current = f;
    const key = seriesKey(sample);
    if (seen.has(key)) fail(line, `series ${key} twice`);
    seen.add(key);
    f.samples.push(sample);
  });
  for (const f of families.values()) if (f.type === 'histogram') checkHistogram(f);
  return families;
}

/** The value of the one sample `name` with exactly `labels`; undefined when absent. */
export function sampleValue(
  families: ReadonlyMap<string, Family>,
  name: string,
  labels: Readonly<Record<string, string>> = {},
): number | undefined {
  const want = seriesKey({ name, labels, value: 0 });
  for (const f of families.values())
    for (const s of f.samples) if (seriesKey(s) === want) return s.value;
  return undefined;
}
