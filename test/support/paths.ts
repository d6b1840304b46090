// Where tests find their data: the repository root and the shared vectors beside it.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Compiled tests live in dist/test/support, three levels below the repository root. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const SHARED_VECTORS = join(REPO_ROOT, '..', 'shared', 'vectors');
