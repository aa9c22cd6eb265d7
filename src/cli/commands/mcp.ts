/** `policyforge mcp`: an MCP stdio server exposing the run's tools to any MCP client. */
import * as path from 'node:path';
import { serveMcpStdio } from '../mcp/mcpServer';
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
    await serveMcpStdio(ws);
    return ExitCode.ok;
  },
};
