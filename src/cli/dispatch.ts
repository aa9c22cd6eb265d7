/** Running one loaded subcommand: its `--help`, and the mapping of its failures to exit codes. */
import { ExitCode, UsageError, type CliCommand } from './command';

export async function runCommand(name: string, command: CliCommand, rest: string[]): Promise<number> {
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${command.summary}\n\nUsage: ${command.usage}\n`);
    return ExitCode.ok;
  }
  try {
    return await command.run(rest);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`policyforge ${name}: ${e.message}\nUsage: ${command.usage}\n`);
      return ExitCode.usage;
    }
    process.stderr.write(`policyforge ${name}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return ExitCode.failed;
  }
}
