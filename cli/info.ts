// Name and version of the running build, read from package.json next to the built code.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const pkgPath = fileURLToPath(new URL('../../package.json', import.meta.url));

export const VERSION: string = (JSON.parse(readFileSync(pkgPath, 'utf8')) as { version: string })
  .version;

export interface CommandLine {
  readonly name: string;
  readonly summary: string;
}

function usage(name: string): string {
  return [
    'USAGE:',
    `    ${name} [OPTIONS]`,
    '',
    'OPTIONS:',
    '    -h, --help       Print this help',
    '    -V, --version    Print the version',
  ].join('\n');
}

/**
 * Handles what every executable answers the same way; returns the exit code, or null when
 * the arguments are for the command itself.
 */
export function handleCommon(cmd: CommandLine, args: readonly string[]): number | null {
  if (args.includes('--version') || args.includes('-V')) {
    process.stdout.write(`${cmd.name} ${VERSION}\n`);
    return 0;
  }
  if (args.length === 0 || args.includes('--help') || args.includes('-h') || args[0] === 'help') {
    process.stdout.write(`${cmd.name} ${VERSION}\n${cmd.summary}\n\n${usage(cmd.name)}\n`);
    return 0;
  }
  return null;
}

export function runMain(cmd: CommandLine, args: readonly string[]): void {
  const code = handleCommon(cmd, args);
  if (code !== null) {
    process.exitCode = code;
    return;
  }
  process.stderr.write(
    `${cmd.name}: unknown command or option '${args[0]}' (see ${cmd.name} --help)\n`,
  );
  process.exitCode = 2;
}
