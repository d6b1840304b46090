// Byte <-> word conversion. ProgPoW and ethash read every hash as little-endian 32-bit words.

/** Reads bytes as little-endian words, whatever the host byte order. */
export function wordsLE(bytes: Uint8Array): Uint32Array {
  const out = new Uint32Array(bytes.length >>> 2);
  for (let i = 0; i < out.length; i++) {
    const o = 4 * i;
    out[i] = (bytes[o] | (bytes[o + 1] << 8) | (bytes[o + 2] << 16) | (bytes[o + 3] << 24)) >>> 0;
  }
  return out;
}

/** Writes words as little-endian bytes (the Rust side transmutes `[u32; 8]` on x86). */
export function bytesLE(words: Uint32Array, count: number = words.length): Uint8Array {
  const out = new Uint8Array(4 * count);
  for (let i = 0; i < count; i++) {
    const w = words[i];
    out[4 * i] = w & 0xff;
    out[4 * i + 1] = (w >>> 8) & 0xff;
    out[4 * i + 2] = (w >>> 16) & 0xff;
    out[4 * i + 3] = w >>> 24;
  }
  return out;
}
