import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, cleanupTmp, makeWorkspace, tmpDir, useTempDataDir } from '../runner/helpers';

function pf(cwd: string, ...args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, env: process.env, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('cli: eval beside a run', function () {
  this.timeout(60_000);
  before(() => useTempDataDir());
  after(() => cleanupTmp());

  it('refuses the run\'s own environment inside a workspace in its agent phase, naming submit', () => {
    const ws = makeWorkspace({ envId: 'CartPole-v1' });
    const r = pf(ws, 'eval', '--env', 'CartPole-v1', '--episodes', '2');
    assert.equal(r.code, 1, r.err);
    assert.match(r.err, /in its agent phase: eval would give it free episodes/);
    assert.match(r.err, /policyforge submit --cases/);
    const json = pf(ws, 'eval', '--env', 'CartPole-v1', '--episodes', '2', '--json');
    assert.equal(json.code, 1);
    assert.equal((JSON.parse(json.out) as { error: { reason: string } }).error.reason, 'eval_inside_run');
  });

  it('is a rule AGENTS.md states', () => {
    const dir = tmpDir('init');
    const init = pf(dir, 'init', '--env', 'CartPole-v1', 'ws');
    assert.equal(init.code, 0, init.err);
    const agents = fs.readFileSync(path.join(dir, 'ws', 'AGENTS.md'), 'utf8');
    assert.match(agents, /eval` \(free episodes, no budget\) refuses this run's environment inside this folder/);
  });

  it('refuses it from outside too when --policy points into that workspace', () => {
    const ws = makeWorkspace({ envId: 'CartPole-v1' });
    const r = pf(tmpDir('elsewhere'), 'eval', '--env', 'CartPole-v1', '--policy', path.join(ws, 'policy'), '--episodes', '2');
    assert.equal(r.code, 1, r.err);
    assert.match(r.err, /agent phase/);
  });

  it('works for another environment, outside runs, and once the run has its report', () => {
    const ws = makeWorkspace({ envId: 'CartPole-v1' });
    const other = pf(ws, 'eval', '--env', 'MountainCar-v0', '--starter', '--episodes', '2', '--skip-typecheck');
    assert.equal(other.code, 0, other.err);
    const outside = pf(tmpDir('outside'), 'eval', '--env', 'CartPole-v1', '--starter', '--episodes', '2', '--skip-typecheck');
    assert.equal(outside.code, 0, outside.err);
    fs.writeFileSync(path.join(ws, '.policyforge', 'report.json'), '{}');
    const after = pf(ws, 'eval', '--env', 'CartPole-v1', '--episodes', '2', '--skip-typecheck');
    assert.equal(after.code, 0, after.err);
    assert.match(after.out, /CartPole-v1 {2}2 episodes/);
  });
});
