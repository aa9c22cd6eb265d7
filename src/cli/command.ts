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

/** Exit codes that mean something to scripts and agents (the table is in src/cli/README.md). */
export const ExitCode = {
  ok: 0,
  /** The command was well formed and the run refused or failed it (budget, build, a failed golden trace). */
  failed: 1,
  /** An argument error, caught by the CLI or by the runner's admission: fix the command and retry. */
  usage: 2,
  /** The runner could not be reached, or it stopped before it answered. */
  runner: 3,
} as const;

/** Runner rejections that are argument errors: the same request can never succeed, whatever the run's state. */
const ARGUMENT_REASONS: ReadonlySet<string> = new Set(['malformed_request', 'message_too_large', 'index_out_of_pool', 'episodes_out_of_bounds']);

/** The exit code of a runner error reply, by its stable reason. */
export function exitCodeForReason(reason: string): number {
  return ARGUMENT_REASONS.has(reason) ? ExitCode.usage : ExitCode.failed;
}
