/**
 * Entry of `dist/runnerProcess.js`: serves one workspace until stopped.
 *
 *   node dist/runnerProcess.js --workspace DIR [--port N] [--host 127.0.0.1] [--idle-exit-ms N] [--workers N]
 *
 * --workers (or POLICYFORGE_WORKERS, which the VS Code setting `policyforge.workers` sets) is the
 * number of sandbox worker processes; default one per core.
 *
 * When listening it prints one JSON line on stdout:
 *   {"event":"ready","port":N,"pid":P,"workspace":"/abs/dir","protocolVersion":1}
 * and logs to stderr. With --idle-exit-ms it stops by itself after that long with no client and no
 * work (the CLI starts runners this way; the next command starts a new one). Exit codes: 0 stopped by SIGTERM/SIGINT, 2 bad arguments, 3 cannot serve
 * (no run in the folder, another runner owns it, bad run.json).
 */
import { parseArgs } from 'node:util';
import { PROTOCOL_VERSION } from '../protocol/run';
import { RunnerAlreadyRunning, startRunnerHost } from './host';

async function main(): Promise<number> {
  let values: { workspace?: string; port?: string; host?: string; 'idle-exit-ms'?: string; workers?: string; help?: boolean };
  try {
    ({ values } = parseArgs({ args: process.argv.slice(2), options: { workspace: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' }, 'idle-exit-ms': { type: 'string' }, workers: { type: 'string' }, help: { type: 'boolean' } }, strict: true }));
  } catch (e) {
    process.stderr.write(`runnerProcess: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
  if (values.help || !values.workspace) {
    process.stderr.write('usage: node dist/runnerProcess.js --workspace DIR [--port N] [--host 127.0.0.1] [--idle-exit-ms N] [--workers N]\n');
    return values.help ? 0 : 2;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`runnerProcess: --port must be an integer 0-65535, got "${values.port}"\n`);
    return 2;
  }
  const idleMs = values['idle-exit-ms'] === undefined ? 0 : Number(values['idle-exit-ms']);
  if (!Number.isInteger(idleMs) || idleMs < 0) {
    process.stderr.write(`runnerProcess: --idle-exit-ms must be a non-negative integer, got "${values['idle-exit-ms']}"\n`);
    return 2;
  }
  const workersText = values.workers ?? process.env['POLICYFORGE_WORKERS'];
  const workers = workersText === undefined || workersText === '' ? undefined : Number(workersText);
  if (workers !== undefined && !(Number.isInteger(workers) && workers >= 1 && workers <= 64)) {
    process.stderr.write(`runnerProcess: ${values.workers !== undefined ? '--workers' : 'POLICYFORGE_WORKERS'} must be an integer 1-64, got "${workersText}"\n`);
    return 2;
  }
  if (values.host && !['127.0.0.1', 'localhost', '::1'].includes(values.host)) {
    process.stderr.write(`runnerProcess: --host must be a loopback address, got "${values.host}"\n`);
    return 2;
  }
  const log = (m: string): void => void process.stderr.write(`[runner ${process.pid}] ${m}\n`);
  let host;
  try {
    host = await startRunnerHost(values.workspace, { port, host: values.host === 'localhost' ? '127.0.0.1' : values.host, log, workers });
  } catch (e) {
    process.stderr.write(`runnerProcess: ${e instanceof Error ? e.message : String(e)}\n`);
    return e instanceof RunnerAlreadyRunning ? 3 : 3;
  }
  log(`serving ${host.run.paths.root} on 127.0.0.1:${host.port}`);
  process.stdout.write(`${JSON.stringify({ event: 'ready', port: host.port, pid: process.pid, workspace: host.run.paths.root, protocolVersion: PROTOCOL_VERSION })}\n`);
  const h = host;
  return new Promise<number>((resolve) => {
    const stop = (signal: string): void => {
      log(`${signal}: shutting down`);
      void h.close().then(() => resolve(0));
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    if (idleMs > 0) {
      let idleSince = Date.now();
      const timer = setInterval(() => {
        if (h.server.clientCount > 0 || !h.run.idle || (h.arena && !h.arena.idle)) idleSince = Date.now();
        else if (Date.now() - idleSince >= idleMs) {
          clearInterval(timer);
          stop(`idle for ${idleMs} ms`);
        }
      }, Math.min(idleMs, 5_000));
    }
    process.once('SIGINT', () => stop('SIGINT'));
    // When the parent (VS Code) goes away and closed our stdin, keep serving: a run outlives the editor.
  });
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`runnerProcess: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(3);
  },
);
