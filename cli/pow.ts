// `mwnode pow randomx KEY_HEX INPUT_HEX`: one RandomX hash as Epic's fork computes it, for
// operators checking a block's proof and for tests.
import { fromHex, toHex } from '../core/bytes.js';
import { loadRandomXAddon } from '../jobs/randomx_addon.js';

/** Thrown for arguments a user must fix; the CLI prints it and exits 2. */
export class PowUsageError extends Error {}

/** The addon is not built here: the message says so and the CLI exits 1. */
export class RandomXUnavailableError extends Error {}

/** Prints the 32-byte hash in hex; throws when the addon is missing (RandomX unavailable). */
export async function powRandomX(keyHex: string, inputHex: string): Promise<string> {
  const key = fromHex(keyHex);
  const input = fromHex(inputHex);
  if (key === null) throw new PowUsageError(`KEY_HEX is not hexadecimal: ${keyHex}`);
  if (input === null) throw new PowUsageError(`INPUT_HEX is not hexadecimal: ${inputHex}`);
  const addon = loadRandomXAddon();
  if (addon === null)
    throw new RandomXUnavailableError(
      'RandomX is unavailable: the native addon was not built (npm ci builds it)',
    );
  return toHex(await addon.hash(key, input));
}
