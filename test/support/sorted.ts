// A JSON value with the keys of every object sorted, as every /v2 reply prints them: expected
// bodies can be written in Epic's declaration order and compared with what /v2 returns.
export function sortedKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedKeys);
  if (v === null || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, sortedKeys(o[k])]),
  );
}
