// Which blinding factor an output key gets: the raw derived key (None) or its switch-commitment
// form (Regular, crypto reference §2.6). Every Epic output, input and coinbase uses Regular.

export const SwitchCommitmentType = { None: 0, Regular: 1 } as const;
export type SwitchCommitmentType = (typeof SwitchCommitmentType)[keyof typeof SwitchCommitmentType];

/** The u8 wire value, or null for anything but 0 and 1 (Epic's `TryFrom<u8>`). */
export function switchTypeFromU8(value: number): SwitchCommitmentType | null {
  if (value === SwitchCommitmentType.None || value === SwitchCommitmentType.Regular) return value;
  return null;
}
