// The wallet password: from `-p`, else asked on the terminal without echo. Never printed, never
// logged; with no terminal and no `-p` the command stops with a clear message.
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';

export class PasswordError extends Error {
  override readonly name = 'PasswordError';
}

/** Reads one line from the terminal; typed characters are not echoed. */
function askHidden(prompt: string): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _enc, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  return new Promise((resolve, reject) => {
    let answered = false;
    rl.question(prompt, (answer) => {
      answered = true;
      rl.close();
      process.stderr.write('\n');
      resolve(answer);
    });
    muted = true;
    // Ctrl-C: the terminal is given back as it was and the command ends, as an interrupt should.
    rl.on('SIGINT', () => {
      answered = true;
      rl.close();
      process.stderr.write('\n');
      process.exit(INTERRUPTED_EXIT);
    });
    // Ctrl-D (end of input) before a line: no password.
    rl.once('close', () => {
      if (!answered) reject(new PasswordError('no password given (input ended)'));
    });
  });
}

/** The shell's exit code for a command ended by SIGINT (128 + 2). */
const INTERRUPTED_EXIT = 130;

const terminal = (): boolean => process.stdin.isTTY === true;

/** The password of an existing wallet. */
export async function walletPassword(given: string | undefined): Promise<string> {
  if (given !== undefined) return given;
  if (!terminal())
    throw new PasswordError('a password is needed: give it with -p (no terminal to ask on)');
  return askHidden('Password: ');
}

/** A new password, typed twice on a terminal. */
export async function newWalletPassword(given: string | undefined): Promise<string> {
  if (given !== undefined) return given;
  if (!terminal())
    throw new PasswordError('a password is needed: give it with -p (no terminal to ask on)');
  const first = await askHidden('Password: ');
  const again = await askHidden('Confirm Password: ');
  if (first !== again) throw new PasswordError('Passwords did not match!');
  return first;
}

/** A line of standard input (a recovery phrase); prompts when a terminal is attached. */
export async function readLine(prompt: string): Promise<string> {
  const rl = createInterface({
    input: process.stdin,
    output: terminal() ? process.stderr : undefined,
    terminal: terminal(),
  });
  try {
    return await new Promise((resolve, reject) => {
      rl.question(terminal() ? prompt : '', resolve);
      rl.once('close', () => reject(new PasswordError('standard input ended before a line')));
    });
  } finally {
    rl.close();
  }
}
