// `npm test`: set up, build (= typecheck), lint, then every test with Node's own runner.
// `npm test -- test/unit/json.test.ts` runs only the named test files.
import { existsSync, readFileSync } from 'node:fs';
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
const tapFile = join(root, 'dist', 'test-results.tap');
log(`node --test: ${files.length} file(s); TAP in ${relative(root, tapFile)}`);
run(
  process.execPath,
  [
    '--test',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tapFile}`,
    ...files,
  ],
  { onFailure: () => summariseFailures(tapFile) },
);

// The failing tests again, last, with their error and location: CI shows only the output's tail.
function summariseFailures(file) {
  if (!existsSync(file)) return;
  const lines = readFileSync(file, 'utf8').split('\n');
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*not ok /.test(lines[i])) continue;
    out.push(lines[i]);
    let keep = 0;
    for (let j = i + 1; j < lines.length && j < i + 60 && !/^\s*(not )?ok /.test(lines[j]); j++) {
      if (/^\s*(error|location|failureType):/.test(lines[j]))
        keep = /error: [|>]/.test(lines[j]) ? 7 : 1;
      else if (/^\s*\w+:/.test(lines[j])) keep = 0;
      if (keep-- > 0) out.push(lines[j].slice(0, 400));
    }
  }
  log(`failing tests (${out.filter((l) => /not ok/.test(l)).length} lines):`);
  process.stderr.write(`${out.slice(-150).join('\n')}\n`);
}
