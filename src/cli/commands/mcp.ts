/** `policyforge mcp`: an MCP stdio server exposing the run's tools to any MCP client. */
import * as path from 'node:path';
import { parse } from '../args';
import { ExitCode, type CliCommand } from '../command';
import { findWorkspace } from './runClient';

export const mcpCommand: CliCommand = {
  name: 'mcp',
  summary: 'Serve the run as MCP tools (submit, status, feedback, finish, restore, report) on stdio',
  usage: 'policyforge mcp [--dir DIR]',
  async run(argv) {
    const { values } = parse(argv, { dir: { type: 'string' } }, false);
    const ws = findWorkspace(values.dir ?? process.cwd());
    if (!ws) {
      process.stderr.write(`policyforge mcp: ${path.resolve(values.dir ?? '.')} holds no run; create one with \`policyforge init --env ID\`\n`);
      return ExitCode.runner;
    }
    // Loaded here, not with the command table: the MCP SDK and its schema validator are much of
    // the CLI's code and only this command needs them (a chunk of their own in the build).
    const { serveMcpStdio } = await import('../mcp/mcpServer');
    await serveMcpStdio(ws);
    return ExitCode.ok;
  },
};
