import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { processAlive } from '../../../src/runner/runnerFile';

describe('runner: processAlive', () => {
  it('a live process is alive; a dead one that nobody reaped yet is not', async function () {
    if (process.platform !== 'linux') this.skip();
    assert.equal(processAlive(process.pid), true);
    // `sleep 0` exits at once; its parent, exec'd into `sleep 2`, never waits for it, so it stays a zombie meanwhile.
    const parent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 2'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const pid = await new Promise<number>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))));
    await new Promise((r) => setTimeout(r, 200));
    try {
      assert.equal(processAlive(pid), false, 'an exited, unreaped runner counts as gone, so the next client restarts it');
      assert.equal(processAlive(parent.pid!), true);
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
