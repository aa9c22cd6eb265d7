import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { processAlive, readRunnerFile } from '../../../src/runner/runnerFile';
import { CLI, cleanupTmp, tmpDir, useTempDataDir } from './helpers';

function pf(cwd: string, ...args: string[]): { code: number | null; out: string; err: string; json: () => Record<string, unknown> } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, env: process.env, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr, json: () => JSON.parse(r.stdout) as Record<string, unknown> };
}

describe('runner: a whole run through the CLI, as an agent drives it', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => {
    useTempDataDir();
    dir = path.join(tmpDir('cli'), 'ws');
  });
  after(() => {
    const f = dir && readRunnerFile(dir);
    if (f && processAlive(f.pid)) process.kill(f.pid, 'SIGTERM');
    cleanupTmp();
  });

  it('init → submit → status → feedback → restore → finish → report, with meaningful exit codes', async () => {
    const init = pf(path.dirname(dir), 'init', '--env', 'CartPole-v1', '--budget', '12', '--validation', '4', '--held-out', '4', 'ws');
    assert.equal(init.code, 0, init.err);
    for (const f of ['AGENTS.md', 'policy/policy.ts', 'policy/env.d.ts', '.policyforge/run.json']) assert.ok(fs.existsSync(path.join(dir, f)), f);
    const agents = fs.readFileSync(path.join(dir, 'AGENTS.md'), 'utf8');
    assert.match(agents, /only\*\* sanctioned way/);
    assert.match(agents, /12 training episodes/);
    assert.equal(pf(path.dirname(dir), 'init', '--env', 'CartPole-v1', 'ws').code, 1, 'init refuses to overwrite a run');
    assert.equal(pf(dir, 'init', '--env', 'Nope-v0', 'other').code, 1);

    // The first client command starts a runner in the background.
    const s1 = pf(dir, 'submit', '--cases', '0-3');
    assert.equal(s1.code, 0, s1.err);
    assert.match(s1.out, /submission 1 .*cases 0-3/);
    assert.match(s1.out, /budget 4\/12 used, 8 remaining/);
    const runner = readRunnerFile(dir);
    assert.ok(runner && processAlive(runner.pid), 'a detached runner serves the workspace');

    // Argument errors exit 2, whether the CLI or the runner's admission catches them, and name the problem.
    const bad = pf(dir, 'submit', '--cases', '0-99', '--json');
    assert.equal(bad.code, 2);
    assert.equal((bad.json().error as { reason: string }).reason, 'index_out_of_pool');
    assert.equal(pf(dir, 'submit').code, 2);
    assert.equal(pf(dir, 'feedback', 'x').code, 2);

    const policy = path.join(dir, 'policy', 'policy.ts');
    fs.writeFileSync(policy, fs.readFileSync(policy, 'utf8').replace('[0.0, 0.0, 1.0, 0.0]', '[0.0, 0.0, 1.0, 0.5]'));
    const s2 = pf(dir, 'submit', '--episodes', '4', '--json');
    assert.equal(s2.code, 0, s2.err);
    const sum2 = s2.json().summary as { submission: number; cases: number[]; stats: { mean: number } };
    assert.deepEqual(sum2.cases, [4, 5, 6, 7]);

    const status = pf(dir, 'status', '--json').json().status as { budget: { used: number; remaining: number }; submissions: number };
    assert.deepEqual([status.budget.used, status.budget.remaining, status.submissions], [8, 4, 2]);
    assert.match(pf(dir, 'feedback', '1').out, /submission 1/);
    assert.equal(pf(dir, 'feedback', '7').code, 1);
    assert.equal(pf(dir, 'report').code, 1, 'no report before the run is complete');

    assert.equal(pf(dir, 'restore', '1').code, 0);
    assert.match(fs.readFileSync(policy, 'utf8'), /\[0\.0, 0\.0, 1\.0, 0\.0\]/);
    assert.equal((pf(dir, 'status', '--json').json().status as { restoredFrom: number }).restoredFrom, 1);

    const fin = pf(dir, 'finish', '--json');
    assert.equal(fin.code, 0, fin.err);
    const report = fin.json().report as { selected: number; heldOut: { count: number }; starterHeldOut: { mean: number } | null };
    assert.equal(report.selected, 2, 'the better policy wins validation');
    assert.equal(report.heldOut.count, 4);
    assert.ok(report.starterHeldOut, 'the starter baseline is in the report');
    const rep = pf(dir, 'report');
    assert.equal(rep.code, 0);
    assert.match(rep.out, /selected submission 2/);
    assert.equal(pf(dir, 'submit', '--cases', '8').code, 1, 'the agent phase is over');
  });

  it('serves the same run as MCP tools whose schemas come from the protocol', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--dir', dir], env: process.env as Record<string, string>, stderr: 'pipe' });
    const client = new Client({ name: 'test', version: '0' });
    await client.connect(transport);
    const tools = await client.listTools();
    const names = tools.tools.map((t) => t.name).sort();
    assert.deepEqual(names, ['feedback', 'finish', 'propose', 'report', 'restore', 'status', 'submit']);
    const submit = tools.tools.find((t) => t.name === 'submit')!;
    assert.ok(submit.inputSchema.properties && 'cases' in submit.inputSchema.properties && 'episodes' in submit.inputSchema.properties && 'config' in submit.inputSchema.properties);
    const status = (await client.callTool({ name: 'status', arguments: {} })) as { content: { type: string; text: string }[]; isError?: boolean };
    assert.ok(!status.isError);
    assert.match(status.content[0]!.text, /phase complete/);
    const rejected = (await client.callTool({ name: 'submit', arguments: { cases: '0-1' } })) as { content: { text: string }[]; isError?: boolean };
    assert.equal(rejected.isError, true);
    assert.match(rejected.content[0]!.text, /run_finished/);
    await client.close();
  });
});
