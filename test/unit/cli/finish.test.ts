import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { processAlive, readRunnerFile } from '../../../src/runner/runnerFile';
import { CLI, cleanupTmp, makeWorkspace, useTempDataDir } from '../runner/helpers';

function pf(cwd: string, ...args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, env: process.env, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('cli: finish', function () {
  this.timeout(120_000);
  let ws: string;
  before(() => {
    useTempDataDir();
    ws = makeWorkspace({ envId: 'CartPole-v1', budget: 8 });
  });
  after(() => {
    const f = ws && readRunnerFile(ws);
    if (f && processAlive(f.pid)) process.kill(f.pid, 'SIGTERM');
    cleanupTmp();
  });

  it('a second finish says the run had already finished, and shows the same report', () => {
    assert.equal(pf(ws, 'submit', '--cases', '0-3').code, 0);
    const first = pf(ws, 'finish');
    assert.equal(first.code, 0, first.err);
    assert.doesNotMatch(first.out, /already finished/);
    const second = pf(ws, 'finish');
    assert.equal(second.code, 0, second.err);
    assert.match(second.out, /^the run had already finished; its report:\n/);
    assert.equal(second.out.replace(/^.*\n/, ''), first.out);
    const json = JSON.parse(pf(ws, 'finish', '--json').out) as { alreadyFinished: boolean };
    assert.equal(json.alreadyFinished, true);
  });
});
