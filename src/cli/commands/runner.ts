/** `policyforge runner [DIR]`: serve a workspace's run in the foreground until Ctrl-C. */
import * as path from 'node:path';
import { RunnerAlreadyRunning, startRunnerHost } from '../../runner/host';
import { parse, parseIntArg } from '../args';
import { ExitCode, type CliCommand } from '../command';
import { findWorkspace } from './runClient';

export const runnerCommand: CliCommand = {
  name: 'runner',
  summary: 'Serve a workspace\'s run (WebSocket JSON-RPC on 127.0.0.1) in the foreground',
  usage: 'policyforge runner [--port N] [--json] [DIR]',
  async run(argv) {
    const { values, positionals } = parse(argv, { port: { type: 'string' }, json: { type: 'boolean' } });
    const dir = findWorkspace(positionals[0] ?? '.');
    if (!dir) {
      process.stderr.write(`policyforge runner: ${path.resolve(positionals[0] ?? '.')} holds no run; create one with \`policyforge init --env ID\`\n`);
      return ExitCode.runner;
    }
    const log = (m: string): void => void process.stderr.write(`[runner] ${m}\n`);
    let host;
    try {
      host = await startRunnerHost(dir, { port: parseIntArg('port', values.port, 0, 0), log });
    } catch (e) {
      process.stderr.write(`policyforge runner: ${e instanceof Error ? e.message : String(e)}\n`);
      return e instanceof RunnerAlreadyRunning ? ExitCode.failed : ExitCode.runner;
    }
    if (values.json) process.stdout.write(`${JSON.stringify({ event: 'ready', port: host.port, pid: process.pid, workspace: dir })}\n`);
    else process.stdout.write(`serving ${dir} on ws://127.0.0.1:${host.port} (token in .policyforge/runner.json); Ctrl-C stops\n`);
    const h = host;
    await new Promise<void>((resolve) => {
      const stop = (): void => void h.close().then(resolve);
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    return ExitCode.ok;
  },
};
