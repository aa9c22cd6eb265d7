/**
 * The read-only commands an agent calls between submits, built as one CommonJS bundle
 * (dist/cliQuick.js) so that they start without the ES-module loader and the CLI's chunk graph.
 * dist/cli.js sends the names in quickCommands.json here and every other name to the full CLI;
 * scripts/build.mjs reads the same list.
 */
import { type CliCommand } from './command';
import { feedbackCommand, reportCommand, statusCommand } from './commands/status';
import { runCommand } from './dispatch';
import QUICK_NAMES from './quickCommands.json';

export const QUICK_COMMAND_NAMES: readonly string[] = QUICK_NAMES;

export const quickCommands: Readonly<Record<string, CliCommand>> = { status: statusCommand, feedback: feedbackCommand, report: reportCommand };

export async function main(argv: string[]): Promise<number> {
  const [name = '', ...rest] = argv;
  const command = Object.hasOwn(quickCommands, name) ? quickCommands[name] : undefined;
  if (!command) throw new Error(`"${name}" is not one of the quick commands (${QUICK_COMMAND_NAMES.join(', ')})`);
  return runCommand(name, command, rest);
}
