// MD5 "proofs" of Epic's test chains (`core/src/pow/md5.rs`, used only by its Cucumber tests):
// the lowercase hex MD5 of the edge-bits byte repeated proof-size times, then the pre-pow.
import { createHash } from 'node:crypto';
import { powFail } from './errors.js';

export function md5Proof(edgeBits: number, proofSize: number, prePow: Uint8Array): string {
  const message = new Uint8Array(proofSize + prePow.length);
  message.fill(edgeBits & 0xff, 0, proofSize);
  message.set(prePow, proofSize);
  return createHash('md5').update(message).digest('hex');
}

/** The string must match exactly (Epic compares the formatted digest with the proof text). */
export function verifyMd5(
  proof: string,
  edgeBits: number,
  proofSize: number,
  prePow: Uint8Array,
): void {
  const expected = md5Proof(edgeBits, proofSize, prePow);
  if (proof !== expected) powFail('InvalidMd5', `${proof} != ${expected}`);
}
