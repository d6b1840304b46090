// The one error type for a configuration the node cannot start with. It carries the file and
// the TOML key so the message tells the operator exactly which line to fix.

export class ConfigError extends Error {
  readonly file: string;
  /** Dotted key path such as `server.p2p_config.port`; null for whole-file problems. */
  readonly key: string | null;
  readonly problem: string;

  constructor(file: string, key: string | null, problem: string) {
    super(key === null ? `${file}: ${problem}` : `${file}: ${key}: ${problem}`);
    this.name = 'ConfigError';
    this.file = file;
    this.key = key;
    this.problem = problem;
  }
}
