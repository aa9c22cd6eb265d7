/** The `policyforge` command: dispatches to one subcommand module per verb. */
import packageJson from '../../package.json';
import { ExitCode, UsageError, type CliCommand } from './command';
import { envsCommand } from './commands/envs';
import { evalCommand } from './commands/eval';
import { goldenCommand } from './commands/golden';
import { analyzeCommand } from './commands/analyze';
import { finishCommand, restoreCommand } from './commands/finish';
import { initCommand } from './commands/init';
import { leaderboardCommand } from './commands/leaderboard';
import { mcpCommand } from './commands/mcp';
import { runCommand } from './commands/run';
import { runnerCommand } from './commands/runner';
import { feedbackCommand, reportCommand, statusCommand } from './commands/status';
import { submitCommand } from './commands/submit';

const commands: readonly CliCommand[] = [
  envsCommand,
  evalCommand,
  goldenCommand,
  analyzeCommand,
  initCommand,
  runnerCommand,
  submitCommand,
  statusCommand,
  feedbackCommand,
  finishCommand,
  reportCommand,
  restoreCommand,
  mcpCommand,
  runCommand,
  leaderboardCommand,
];

function help(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return `policyforge: evolve executable policies under a fixed episode budget\n\nUsage: policyforge <command> [options]\n\n${commands
    .map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`)
    .join('\n')}\n\nRun "policyforge <command> --help" for a command's options.\n`;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(help());
    return name ? ExitCode.ok : ExitCode.usage;
  }
  if (name === '--version') {
    process.stdout.write(`${packageJson.version}\n`);
    return ExitCode.ok;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(`policyforge: unknown command "${name}"\n\n${help()}`);
    return ExitCode.usage;
  }
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

