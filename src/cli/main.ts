/**
 * The `policyforge` command: dispatches to one subcommand module per verb. Each module is
 * imported only when its command runs (the build makes each one a chunk of its own), so a quick
 * command such as `status` does not load the environments, the sandbox or the MCP SDK. The
 * built CLI runs the commands named in quickCommands.json from a bundle of their own (quick.ts);
 * they stay in this table for `--help` and for callers of `main`.
 */
import packageJson from '../../package.json';
import { ExitCode, type CliCommand } from './command';
import { runCommand } from './dispatch';

/**
 * Command name → its module, in the order `--help` lists them. A new command is one line here;
 * test/unit/cli/commandTable.test.ts checks that each name matches the command it loads.
 */
export const commands: Readonly<Record<string, () => Promise<CliCommand>>> = {
  envs: async () => (await import('./commands/envs')).envsCommand,
  eval: async () => (await import('./commands/eval')).evalCommand,
  golden: async () => (await import('./commands/golden')).goldenCommand,
  analyze: async () => (await import('./commands/analyze')).analyzeCommand,
  init: async () => (await import('./commands/init')).initCommand,
  runner: async () => (await import('./commands/runner')).runnerCommand,
  submit: async () => (await import('./commands/submit')).submitCommand,
  propose: async () => (await import('./commands/propose')).proposeCommand,
  status: async () => (await import('./commands/status')).statusCommand,
  feedback: async () => (await import('./commands/status')).feedbackCommand,
  finish: async () => (await import('./commands/finish')).finishCommand,
  report: async () => (await import('./commands/status')).reportCommand,
  restore: async () => (await import('./commands/finish')).restoreCommand,
  pool: async () => (await import('./commands/pool')).poolCommand,
  mcp: async () => (await import('./commands/mcp')).mcpCommand,
  run: async () => (await import('./commands/run')).runCommand,
  agent: async () => (await import('./commands/agent')).agentCommand,
  leaderboard: async () => (await import('./commands/leaderboard')).leaderboardCommand,
  suite: async () => (await import('./commands/suite')).suiteCommand,
};

async function help(): Promise<string> {
  const all = await Promise.all(Object.values(commands).map((load) => load()));
  const width = Math.max(...all.map((c) => c.name.length));
  return `policyforge: evolve executable policies under a fixed episode budget\n\nUsage: policyforge <command> [options]\n\n${all
    .map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`)
    .join('\n')}\n\nRun "policyforge <command> --help" for a command's options.\n`;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(await help());
    return name ? ExitCode.ok : ExitCode.usage;
  }
  if (name === '--version') {
    process.stdout.write(`${packageJson.version}\n`);
    return ExitCode.ok;
  }
  const load = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!load) {
    process.stderr.write(`policyforge: unknown command "${name}"\n\n${await help()}`);
    return ExitCode.usage;
  }
  return runCommand(name, await load(), rest);
}
