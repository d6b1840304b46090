// What the two executables (mwnode, mwwallet) share around their commands: the program header
// (version, help, the `name: … (see name --help)` form of usage errors) and main(), which turns
// a command's result or error into an exit code and a one-line message on stderr.
import { Command, CommanderError } from 'commander';
import { VERSION } from './info.js';

/** Exit code for a command line we cannot make sense of. */
export const USAGE_EXIT = 2;

/** Runs one command's action; its result becomes the process's exit code. */
export type ActionRunner = (action: () => Promise<number> | number) => Promise<void>;

/** Writes `name: text` on stderr. */
export function say(name: string, text: string): void {
  process.stderr.write(`${name}: ${text}\n`);
}

/** Commander reports `error: …`; we say which program and where to look. */
export function usageErrorWriter(name: string): (text: string, write: (s: string) => void) => void {
  return (text, write) =>
    write(`${name}: ${text.replace(/^error: /, '').trimEnd()} (see ${name} --help)\n`);
}

/**
 * The top-level command with `--version`, the help option (`helpFlags`), `help [command]`, a
 * header naming the program above the usage line, and errors thrown instead of exiting.
 */
export function newProgram(name: string, summary: string, helpFlags: string): Command {
  // The summary is in the header above the usage line, so the program has no description.
  return new Command(name)
    .version(`${name} ${VERSION}`, '-V, --version', 'Print the version')
    .helpOption(helpFlags, 'Print this help')
    .helpCommand('help [command]', 'Print the help of a command')
    .addHelpText('beforeAll', `${name} ${VERSION}\n${summary}\n`)
    .exitOverride()
    .configureOutput({ outputError: usageErrorWriter(name) });
}

export interface CliSpec {
  readonly name: string;
  /** Builds the program; every action must be run through `run`. */
  readonly build: (run: ActionRunner) => Command;
  /** The message for an error the operator can act on; null for a bug (rethrown with its stack). */
  readonly expectedMessage: (err: unknown) => string | null;
  /** Errors that mean the arguments were wrong: reported like commander's own, exit USAGE_EXIT. */
  readonly isUsageError?: (err: unknown) => err is Error;
}

/** Parses `args` and runs the chosen command; no arguments prints the help. */
export async function runCli(spec: CliSpec, args: readonly string[]): Promise<number> {
  let code = 0;
  const program = spec.build(async (action) => {
    code = await action();
  });
  if (args.length === 0) {
    program.outputHelp();
    return 0;
  }
  try {
    await program.parseAsync(args, { from: 'user' });
    return code;
  } catch (err) {
    if (err instanceof CommanderError)
      // `help [command]` ends with 'commander.help' (exit code 0 when it found the command),
      // `--help` with 'commander.helpDisplayed'.
      return err.code === 'commander.helpDisplayed' ||
        (err.code === 'commander.help' && err.exitCode === 0) ||
        err.code === 'commander.version'
        ? 0
        : USAGE_EXIT;
    if (spec.isUsageError?.(err)) {
      usageErrorWriter(spec.name)(err.message, (s) => process.stderr.write(s));
      return USAGE_EXIT;
    }
    const message = spec.expectedMessage(err);
    if (message === null) throw err;
    say(spec.name, message);
    return 1;
  }
}
