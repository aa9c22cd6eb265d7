/**
 * The CLI as an agent calls it, one process per command: `policyforge status` against a running
 * runner (start-up, connect, one request, print), against a bare `node -e 0` start measured in
 * the same run, alternating so both see the same machine. Medians of several calls each.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { BenchModule, BenchTable } from './harness';

const CLI = path.resolve(__dirname, '..', 'bin', 'policyforge.js');
const CALLS = 15;

export const cliBench: BenchModule = {
  name: 'cli',
  async run(table: BenchTable): Promise<void> {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-bench-cli-'));
    const env = { ...process.env, POLICYFORGE_DATA_DIR: path.join(tmp, 'data') };
    const ws = path.join(tmp, 'ws');
    try {
      await timed(process.execPath, [CLI, 'init', '--env', 'CartPole-v1', ws], tmp, env);
      await timed(process.execPath, [CLI, 'status'], ws, env); // starts the workspace's runner
      const bare: number[] = [];
      const status: number[] = [];
      for (let i = 0; i < CALLS; i++) {
        bare.push(await timed(process.execPath, ['-e', '0'], ws, env));
        status.push(await timed(process.execPath, [CLI, 'status'], ws, env));
      }
      table.duration('`policyforge status` round trip (median)', median(status), 'ms', 'node -e 0', median(bare), 'status ≤ 250 ms');
    } finally {
      const runnerFile = path.join(ws, '.policyforge', 'runner.json');
      if (fs.existsSync(runnerFile)) {
        const { pid } = JSON.parse(fs.readFileSync(runnerFile, 'utf8')) as { pid: number };
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          // already gone
        }
      }
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  },
};

function timed(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code === 0) resolve(ms);
      else reject(new Error(`${path.basename(cmd)} ${args.join(' ')} exited ${code}: ${err}`));
    });
  });
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
