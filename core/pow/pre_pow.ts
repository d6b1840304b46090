// The few pre-pow fields the verifiers read. The difficulty map in the middle may hold fewer
// than four entries, so the tail fields are located from the end.

/** Fewest bytes that hold version ‖ height at the front and scaling ‖ nonce at the end. */
export const MIN_PRE_POW = 22;

function view(prePow: Uint8Array): DataView {
  if (prePow.length < MIN_PRE_POW)
    throw new RangeError(`a pre-pow of ${prePow.length} bytes is too short`);
  return new DataView(prePow.buffer, prePow.byteOffset, prePow.byteLength);
}

export function prePowHeight(prePow: Uint8Array): bigint {
  return view(prePow).getBigUint64(2, false);
}

export function prePowSecondaryScaling(prePow: Uint8Array): number {
  return view(prePow).getUint32(prePow.length - 12, false);
}

export function prePowNonce(prePow: Uint8Array): bigint {
  return view(prePow).getBigUint64(prePow.length - 8, false);
}

/** The pre-pow without its nonce: what ProgPoW hashes (keccak256) and stratum sends. */
export function prePowWithoutNonce(prePow: Uint8Array): Uint8Array {
  return prePow.subarray(0, prePow.length - 8);
}
