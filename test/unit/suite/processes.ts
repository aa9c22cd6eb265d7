/** Child processes for the suite tests that start redis-server and `policyforge suite` workers. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as net from 'node:net';
import { CLI, cleanupTmp, useTempDataDir, waitFor } from '../runner/helpers';

/** A loopback port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

export interface Proc {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr interleaved. */
  out: () => string;
  exited: Promise<number | null>;
}

export function start(cmd: string, args: string[], cwd: string): Proc {
  const child = spawn(cmd, args, { cwd, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout!.on('data', (d: Buffer) => (text += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (text += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, out: () => text, exited };
}

/** The processes of one Redis suite test file; its `after` hook stops every one still running. */
export interface RedisSuiteProcesses {
  /** Starts `policyforge ARGS…` (the built CLI) in `cwd`. */
  cli(args: string[], cwd: string): Proc;
  /** Starts a private redis-server on a free loopback port, without persistence; resolves its URL once it accepts connections. */
  redis(cwd: string): Promise<string>;
  /** Starts `policyforge suite worker` (one runner slot) on `url` with its work folder `work`; resolves once it is ready. */
  worker(url: string, work: string, cwd: string, ...extra: string[]): Promise<Proc>;
}

/**
 * Registers the `before`/`after` hooks a Redis suite test file needs and returns how to start
 * its processes: `before` fails with the install command when redis-server is missing and moves
 * the run secrets to a temp data folder; `after` stops whatever is still running, waits for it
 * to exit, then removes the temp folders.
 */
export function useRedisSuiteProcesses(): RedisSuiteProcesses {
  const procs: Proc[] = [];
  const track = (p: Proc): Proc => {
    procs.push(p);
    return p;
  };
  before(function () {
    if (spawnSync('redis-server', ['--version']).status !== 0) throw new Error('redis-server is not installed: run `node scripts/systemDeps.mjs` as root, or apt-get install -y redis-server');
    useTempDataDir();
  });
  after(async () => {
    for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
    await Promise.all(procs.map((p) => p.exited));
    cleanupTmp();
  });
  const cli = (args: string[], cwd: string): Proc => track(start(process.execPath, [CLI, ...args], cwd));
  return {
    cli,
    async redis(cwd) {
      const port = await freePort();
      const redis = track(start('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], cwd));
      await waitFor('redis-server', () => redis.out().includes('Ready to accept connections'));
      return `redis://127.0.0.1:${port}`;
    },
    async worker(url, work, cwd, ...extra) {
      const w = cli(['suite', 'worker', '--queue', url, '--work', work, '--workers', '1', ...extra], cwd);
      try {
        await waitFor('a suite worker', () => w.out().includes('ready'), 30_000);
      } catch (e) {
        throw new Error(`${(e as Error).message}; it printed:\n${w.out()}`);
      }
      return w;
    },
  };
}
