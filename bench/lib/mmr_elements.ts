// MMR bench elements: leaf i is 34 bytes, an output's hash-mode size (features ‖ commitment),
// written into one reused buffer (the MMR hashes and copies it before the next is written).
const scratch = new Uint8Array(34);
const scratchView = new DataView(scratch.buffer);

export function element(i: number): Uint8Array {
  scratch[0] = i % 2;
  scratch[1] = 0x08;
  scratchView.setUint32(2, i);
  scratchView.setUint32(30, Math.imul(i, 0x9e3779b1) >>> 0);
  return scratch;
}
