// The JSON data model shared by parseJson and stringifyJson. Integers that do not fit a JS
// number exactly are bigints, so u64 amounts, difficulties and nonces survive a round trip.

export type JsonValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | JsonValue[]
  | { [key: string]: JsonValue };

export type JsonArray = JsonValue[];
export type JsonObject = { [key: string]: JsonValue };

/** A plain object (not an array, null, bigint or class instance such as Uint8Array). */
export function isJsonObject(v: unknown): v is JsonObject {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

export function isJsonArray(v: unknown): v is JsonArray {
  return Array.isArray(v);
}

/** An integer as the parser produces it: a safe-integer number or a bigint. */
export function isJsonInteger(v: unknown): v is number | bigint {
  return typeof v === 'bigint' || Number.isInteger(v);
}
