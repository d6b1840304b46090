// Sealed JSON values: deep-frozen documents that are printed many times (the chain head's views,
// answered to every get_tip) remember their printed text per layout, so printing one again is a
// lookup. Only values sealed here are remembered, never merely frozen ones: sealing freezes every
// level, so the remembered text cannot go stale.
import type { JsonValue } from './value.js';

const sealed = new WeakSet<object>();
/** Printed text per sealed container, keyed by layout (see stringify.ts). */
const printed = new WeakMap<object, Map<string, string>>();

/** Freezes `value` at every depth and marks its containers for print caching; returns it. */
export function sealJson<T extends JsonValue>(value: T): T {
  if (typeof value !== 'object' || value === null || sealed.has(value)) return value;
  for (const child of Object.values(value)) sealJson(child);
  Object.freeze(value);
  sealed.add(value);
  return value;
}

export function isSealed(value: object): boolean {
  return sealed.has(value);
}

/** The text printed earlier for this sealed container in this layout, if any. */
export function printedText(value: object, layout: string): string | undefined {
  return printed.get(value)?.get(layout);
}

/** Remembers the text of a sealed container in one layout (there are few layouts per value). */
export function rememberText(value: object, layout: string, text: string): void {
  let byLayout = printed.get(value);
  if (byLayout === undefined) {
    byLayout = new Map();
    printed.set(value, byLayout);
  }
  byLayout.set(layout, text);
}
