// Restore matching (epic-wallet libwallet/src/internal/scan.rs `identify_utxo_outputs`): which
// unspent outputs of a get_unspent_outputs page belong to this wallet. For each output the
// bulletproof is rewound with ProofBuilder's nonce, then with LegacyProofBuilder's; the rewound
// message names a key id and switch type, and the output is ours only when
// commit(value, derive_key(value, id, switch)) equals its commitment.
import { equalBytes, toHex } from '../bytes.js';
import { type ChainType, chainParams } from '../chain_type.js';
import {
  LegacyProofBuilder,
  type ProofBuild,
  ProofBuilder,
  type RewoundOutput,
  rewindWithBuilder,
  type SwitchType,
} from '../crypto/bulletproof/index.js';
import { commit } from '../crypto/commit.js';
import { Identifier } from '../keychain/identifier.js';
import type { ExtKeychain } from '../keychain/keychain.js';

/** One output of a get_unspent_outputs page, as the node client decodes it. */
export interface ChainUnspentOutput {
  readonly commit: Uint8Array;
  readonly proof: Uint8Array;
  /** output_type == "Coinbase". */
  readonly isCoinbase: boolean;
  readonly height: bigint;
  readonly mmrIndex: bigint;
}

/** Epic's OutputResult: an output found to be ours. */
export interface FoundOutput {
  /** 66 hex chars. */
  readonly commit: string;
  /** 34 hex chars. */
  readonly keyId: string;
  readonly nChild: number;
  readonly value: bigint;
  readonly height: bigint;
  /** height + coinbase maturity for coinbases, height otherwise. */
  readonly lockHeight: bigint;
  readonly isCoinbase: boolean;
  readonly mmrIndex: bigint;
  /** Epic warns ("Unexpected switch commitment type None") when it is not Regular (1). */
  readonly switchType: SwitchType;
  /** Which builder's nonce rewound it. */
  readonly builder: 'current' | 'legacy';
}

/** Holds the two builders (one point multiplication each) for a whole scan. */
export class ScanMatcher {
  private readonly current: ProofBuild;
  private readonly legacy: ProofBuild;
  private readonly maturity: bigint;

  constructor(
    private readonly keychain: ExtKeychain,
    chainType: ChainType,
  ) {
    this.current = ProofBuilder.fromMasterSecret(keychain.master.secretKey);
    this.legacy = LegacyProofBuilder.fromMasterSecret(keychain.master.secretKey);
    this.maturity = chainParams(chainType).coinbaseMaturity;
  }

  /** The output as ours, or null. Never throws on foreign or malformed outputs. */
  match(o: ChainUnspentOutput): FoundOutput | null {
    const current = this.owned(this.current, o);
    const hit = current ?? this.owned(this.legacy, o);
    if (hit === null) return null;
    const id = Identifier.fromBytes(hit.keyId);
    return {
      commit: toHex(o.commit),
      keyId: id.toHex(),
      nChild: id.toPath().lastPathIndex(),
      value: hit.value,
      height: o.height,
      lockHeight: o.isCoinbase ? o.height + this.maturity : o.height,
      isCoinbase: o.isCoinbase,
      mmrIndex: o.mmrIndex,
      switchType: hit.switchType,
      builder: current === null ? 'legacy' : 'current',
    };
  }

  /** The page's outputs that are ours, in page order. */
  matchPage(outputs: readonly ChainUnspentOutput[]): FoundOutput[] {
    const found: FoundOutput[] = [];
    for (const o of outputs) {
      const f = this.match(o);
      if (f !== null) found.push(f);
    }
    return found;
  }

  /** Rewind, then Epic's check_output: the recomputed commitment must be the output's. */
  private owned(builder: ProofBuild, o: ChainUnspentOutput): RewoundOutput | null {
    const r = rewindWithBuilder(builder, o.commit, o.proof);
    if (r === null) return null;
    try {
      const id = Identifier.fromBytes(r.keyId);
      const blind = this.keychain.deriveKey(r.value, id, r.switchType);
      return equalBytes(commit(r.value, blind), o.commit) ? r : null;
    } catch {
      // A message naming a key this keychain cannot derive is not ours (Epic errors out).
      return null;
    }
  }
}

/** Epic's progress message for a found output (StatusMessage::Scanning text). */
export function foundOutputMessage(f: FoundOutput): string {
  return `\nOutput found:\ncommit: ${f.commit},\namount: ${amountAsFloat(f.value)},\nkeyid: ${f.keyId},\nmmr index: ${f.mmrIndex}\n`;
}

/** `amount as f64 / 1e8` printed by Rust's `{}` (shortest round-trip, never exponent form). */
export function amountAsFloat(value: bigint): string {
  const x = Number(value) / 1e8;
  const s = String(x);
  if (!s.includes('e')) return s;
  // Rust prints the same digits positionally; expand JS's exponent form.
  const [mant, expPart] = s.split('e') as [string, string];
  const exp = Number(expPart);
  const neg = mant.startsWith('-');
  const digits = mant.replace('-', '').replace('.', '');
  const point = (mant.replace('-', '').indexOf('.') + 1 || mant.replace('-', '').length + 1) - 1;
  const pos = point + exp;
  let out: string;
  if (pos <= 0) out = `0.${'0'.repeat(-pos)}${digits}`;
  else if (pos >= digits.length) out = digits + '0'.repeat(pos - digits.length);
  else out = `${digits.slice(0, pos)}.${digits.slice(pos)}`;
  return neg ? `-${out}` : out;
}
