// Helpers shared by the P2P codec tests: typed-error matchers.
import assert from 'node:assert/strict';
import { P2pError, type P2pErrorKind } from '../../core/p2p/errors.js';
import { SerError, type SerErrorKind } from '../../core/ser/errors.js';

/** An assert.throws matcher for a P2pError of exactly `kind`. */
export function p2pError(kind: P2pErrorKind): (e: unknown) => boolean {
  return (e) => {
    assert.ok(e instanceof P2pError, `expected P2pError ${kind}, got ${String(e)}`);
    assert.equal(e.kind, kind);
    return true;
  };
}

/** An assert.throws matcher for a SerError of exactly `kind`. */
export function serError(kind: SerErrorKind): (e: unknown) => boolean {
  return (e) => {
    assert.ok(e instanceof SerError, `expected SerError ${kind}, got ${String(e)}`);
    assert.equal(e.kind, kind);
    return true;
  };
}
