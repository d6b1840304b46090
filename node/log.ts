// Structured logs: one JSON object per line on stderr. Callers never pass secrets.
export function log(event: string, fields: Record<string, unknown> = {}): void {
  const line = JSON.stringify({ ts: new Date().toISOString(), event, ...fields }, (_k, v) =>
    typeof v === 'bigint' ? v.toString() : v,
  );
  process.stderr.write(`${line}\n`);
}
