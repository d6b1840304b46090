// Name and version of the running build, read from package.json next to the built code.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const pkgPath = fileURLToPath(new URL('../../package.json', import.meta.url));

export const VERSION: string = (JSON.parse(readFileSync(pkgPath, 'utf8')) as { version: string })
  .version;
