/** The shape of one `policyforge` subcommand, and the error type that maps to a usage message. */
export interface CliCommand {
  readonly name: string;
  /** One line for `policyforge --help`. */
  readonly summary: string;
  /** Full usage text for `policyforge <name> --help`. */
  readonly usage: string;
  /** Runs the command; resolves to the process exit code. */
  run(argv: string[]): Promise<number>;
}

/** Bad arguments: printed with the command's usage, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Exit codes that mean something to scripts and agents. */
export const ExitCode = {
  ok: 0,
  /** The command ran and the thing it checks failed (a golden trace, a rejected submit). */
  failed: 1,
  usage: 2,
  /** The runner could not be reached or crashed. */
  runner: 3,
} as const;
