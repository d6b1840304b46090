// Waiting for a state reached by another process or thread: reads again until it holds.

/** Reads every `everyMs` until `done` holds of the value or `ms` have passed; the last read. */
export async function pollUntil<T>(
  read: () => Promise<T> | T,
  done: (v: T) => boolean,
  ms: number,
  everyMs = 20,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
