/** `policyforge mcp`: an MCP stdio server exposing the run's tools to any MCP client. */
import * as path from 'node:path';
import type * as McpServerModule from '../mcp/mcpServer';
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
    // Loaded here, not at start-up: the MCP SDK and its schema validator are most of the CLI's
    // code, and no other command needs them (the build keeps the module in dist/mcpServer.js).
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy on purpose
    const { serveMcpStdio } = require('../mcp/mcpServer') as typeof McpServerModule;
    await serveMcpStdio(ws);
    return ExitCode.ok;
  },
};
