// `npm test`: set up, build (= typecheck), lint, then every test with Node's own runner.
// `npm test -- test/unit/json.test.ts` runs only the named test files.
import { join, relative } from 'node:path';
import { build } from './build.mjs';
import { log, root, run, walk } from './lib.mjs';
import { setup } from './setup.mjs';

function testFiles(args) {
  if (args.length === 0) return walk(join(root, 'dist', 'test'), '.test.js');
  return args.map((a) => join(root, 'dist', relative(root, join(root, a)).replace(/\.ts$/, '.js')));
}

setup();
build();
log('lint: biome check');
run(process.execPath, [
  join(root, 'node_modules', '@biomejs', 'biome', 'bin', 'biome'),
  'check',
  '.',
]);
const files = testFiles(process.argv.slice(2));
log(`node --test: ${files.length} file(s)`);
run(process.execPath, ['--test', ...files]);
