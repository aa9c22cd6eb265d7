/**
 * `policyforge suite run --agent-cmd`: every job of the suite is driven by an external coding
 * agent through the launcher of `policyforge run --agent-cmd`. The scripted agent of the launcher's
 * own tests (it submits through the CLI, crashes, and on its retry submits the rest through MCP)
 * runs two CartPole jobs side by side; each run ends with its budget spent, keeps its transcript,
 * and the suite's leaderboard names the agent.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readTranscript } from '../../../src/agents/external/transcript';
import type { RunReport } from '../../../src/protocol/feedback';
import { CLI, cleanupTmp, REPO, tmpDir, useTempDataDir } from '../runner/helpers';

const SCRIPTED_AGENT = path.join(REPO, 'test', 'fixtures', 'agents', 'scriptedAgent.mjs');

function suite(cwd: string, env: NodeJS.ProcessEnv, ...args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [CLI, 'suite', 'run', ...args], { cwd, env, encoding: 'utf8', timeout: 240_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('suite run --agent-cmd', function () {
  this.timeout(300_000);
  before(() => useTempDataDir());
  after(() => cleanupTmp());

  it('runs the scripted external agent on two jobs locally, retries its crash, and ranks it', () => {
    const cwd = tmpDir('suite-agent');
    const r = suite(
      cwd,
      { ...process.env, PF_ALLOWED: 'yes', PF_SECRET: 'must-not-leak' },
      '--envs', 'CartPole-v1', '--repeats', '2', '--budget', '8', '--validation-cases', '4', '--held-out-cases', '4', '--parallel', '2',
      '--agent-cmd', `node ${JSON.stringify(SCRIPTED_AGENT)}`, '--agent-name', 'scripted', '--agent-env', 'PF_ALLOWED', '--retry-backoff-ms', '200', '--grace', '30',
      '--dir', 'suite', '--json',
    );
    assert.equal(r.code, 0, `${r.err}\n${r.out}`);
    const out = JSON.parse(r.out) as { ok: boolean; failed: string[]; leaderboard: { entries: { entry: string; kind: string }[] } };
    assert.deepEqual(out.failed, []);
    assert.ok(out.leaderboard.entries.some((e) => e.entry === 'scripted' && e.kind === 'agent'));

    const spec = JSON.parse(fs.readFileSync(path.join(cwd, 'suite', 'suite.json'), 'utf8')) as { agent: string; external?: { command: string; allowEnv?: string[] } };
    assert.equal(spec.agent, 'scripted');
    assert.deepEqual(spec.external?.allowEnv, ['PF_ALLOWED'], 'a resumed suite runs the same agent');
    for (const id of ['CartPole-v1__scripted__r1', 'CartPole-v1__scripted__r2']) {
      const ws = path.join(cwd, 'suite', 'runs', id);
      const report = JSON.parse(fs.readFileSync(path.join(ws, '.policyforge', 'report.json'), 'utf8')) as RunReport & { agent?: { ending: string; attempts?: { exitCode: number | null }[] } };
      assert.equal(report.budget.used, 8, `${id} spent its budget`);
      assert.equal(report.agent?.ending, 'budget_spent', `${id}: the report says how the run ended`);
      assert.deepEqual(report.agent?.attempts?.map((a) => a.exitCode), [3, 0], `${id}: one crash, one retry`);
      const lines = readTranscript(path.join(ws, '.policyforge', 'agent', 'transcript.jsonl'));
      assert.ok(lines.some((l) => l.text === 'submitting via CLI') && lines.some((l) => l.text === 'submitting via MCP'), `${id}: submitted through the CLI and MCP`);
      assert.match(lines.find((l) => l.text.startsWith('env '))!.text, /PF_ALLOWED=yes PF_SECRET=<unset>/, 'only the listed variables reach the agent');
      assert.match(fs.readFileSync(path.join(ws, 'AGENTS.md'), 'utf8'), /`policyforge submit/, 'AGENTS.md names the policyforge on the agent\'s PATH');
    }
    const csv = fs.readFileSync(path.join(cwd, 'suite', 'results.csv'), 'utf8').trim().split('\n');
    assert.equal(csv.filter((l) => l.startsWith('CartPole-v1,scripted,')).length, 2);
  });

  it('refuses launcher options without an external agent, and built-in names for one', () => {
    const cwd = tmpDir('suite-agent-usage');
    const usage = (...args: string[]): { code: number | null; err: string } => suite(cwd, process.env, '--envs', 'CartPole-v1', '--dir', `s${Math.random().toString(36).slice(2)}`, ...args);
    const r1 = usage('--agent', 'random', '--time-limit', '60');
    assert.equal(r1.code, 2);
    assert.match(r1.err, /--time-limit applies to external agents only/);
    const r2 = usage('--agent-cmd', 'true', '--agent-name', 'autotune');
    assert.equal(r2.code, 2);
    assert.match(r2.err, /built-in agent's name/);
    const r3 = usage('--agent', 'codex', '--agent-cmd', 'true');
    assert.equal(r3.code, 2);
    const r4 = usage('--agent', 'nobody');
    assert.equal(r4.code, 2);
    assert.match(r4.err, /autotune, random, claude-code, codex, gemini, aider/);
  });
});
