/** Child processes for the suite tests that start redis-server and `policyforge suite` workers. */
import { spawn, type ChildProcess } from 'node:child_process';
import * as net from 'node:net';

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
