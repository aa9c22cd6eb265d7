import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { RunnerClient } from '../../../src/runner/client';
import { processAlive, readRunnerFile } from '../../../src/runner/runnerFile';
import { CLI, cartPolicy, cleanupTmp, makeWorkspace, useTempDataDir, writePolicy } from '../runner/helpers';
import { pf } from './cliHelpers';

describe('cli and MCP: progress of validation and assessment', function () {
  this.timeout(180_000);
  const workspaces: string[] = [];
  before(() => useTempDataDir());
  after(() => {
    for (const ws of workspaces) {
      const f = readRunnerFile(ws);
      if (f && processAlive(f.pid)) process.kill(f.pid, 'SIGTERM');
    }
    cleanupTmp();
  });

  const twoCandidates = (): string => {
    const ws = makeWorkspace({ budget: 10, validationCases: 4, heldOutCases: 4 });
    workspaces.push(ws);
    writePolicy(ws, cartPolicy(0.5));
    assert.equal(pf(ws, 'submit', '--cases', '0-1').code, 0);
    writePolicy(ws, cartPolicy(-0.2));
    assert.equal(pf(ws, 'submit', '--cases', '2-3').code, 0);
    return ws;
  };

  it('without a terminal, finish prints a line per phase and per validated candidate on stderr', () => {
    const ws = twoCandidates();
    const r = pf(ws, 'finish');
    assert.equal(r.code, 0, r.err);
    const lines = r.err.trim().split('\n');
    assert.equal(lines[0], 'validation: 0/2 candidates, 0/8 episodes');
    assert.ok(lines.includes('validation: 2/2 candidates, 8/8 episodes'), r.err);
    assert.ok(lines.some((l) => /^assessment of submission [12]: 4\/4 episodes$/.test(l)), r.err);
    // Then the baselines on the same held-out cases, each its own phase: none runs without a line.
    const assessed = lines.findIndex((l) => /^assessment of submission [12]: 4\/4 episodes$/.test(l));
    assert.deepEqual(lines.slice(assessed + 1), ['starter baseline: 0/4 episodes', 'starter baseline: 4/4 episodes', 'uniform-random baseline: 0/4 episodes', 'uniform-random baseline: 4/4 episodes'], r.err);
    assert.match(r.out, /\n {2}uniform-random held-out /, 'the baseline the last lines counted is in the report');
    assert.match(r.out, /^run complete: CartPole-v1/);
    assert.equal(pf(ws, 'finish', '--json').err, '', 'nothing but JSON with --json');
  });

  it('without a terminal, the submit that spends the last of the budget prints its feedback, then the progress of the end of the run', () => {
    const ws = makeWorkspace({ budget: 4, validationCases: 4, heldOutCases: 4 });
    workspaces.push(ws);
    writePolicy(ws, cartPolicy(0.5));
    assert.equal(pf(ws, 'submit', '--cases', '0-1').code, 0);
    writePolicy(ws, cartPolicy(-0.2));
    const r = pf(ws, 'submit', '--cases', '2-3');
    assert.equal(r.code, 0, r.err);
    const lines = r.err.trim().split('\n');
    assert.match(lines[0]!, /^warning: this submit spends the last 2 episodes/);
    assert.ok(lines.includes('validation: 2/2 candidates, 8/8 episodes'), r.err);
    assert.ok(lines.some((l) => /^assessment of submission [12]: 4\/4 episodes$/.test(l)), r.err);
    assert.match(r.out, /^submission 2 .*\n(?:.*\n)*\nThat submit spent the last of the budget/);
  });

  it('MCP: the submit that spends the last of the budget sends progress through the validation and assessment it waits for', async () => {
    const ws = makeWorkspace({ budget: 4, validationCases: 4, heldOutCases: 4 });
    workspaces.push(ws);
    writePolicy(ws, cartPolicy(0.5));
    assert.equal(pf(ws, 'submit', '--cases', '0-1').code, 0);
    writePolicy(ws, cartPolicy(-0.2));
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--dir', ws], stderr: 'ignore' });
    const mcp = new Client({ name: 'test', version: '0' });
    await mcp.connect(transport);
    const seen: { progress: number; message?: string }[] = [];
    try {
      const r = (await mcp.callTool({ name: 'submit', arguments: { cases: '2-3' } }, undefined, { timeout: 170_000, onprogress: (p) => seen.push(p) })) as { isError?: boolean; content: { text: string }[] };
      assert.ok(!r.isError, r.content[0]?.text);
      assert.match(r.content[0]!.text, /That submit spent the last of the budget/);
      for (let i = 1; i < seen.length; i++) assert.ok(seen[i]!.progress >= seen[i - 1]!.progress, JSON.stringify(seen));
      assert.ok(seen.some((p) => p.message === 'validation: 2/2 candidates, 8/8 episodes'), JSON.stringify(seen));
      assert.ok(seen.some((p) => /^assessment of submission [12]: 4\/4 episodes$/.test(p.message ?? '')), JSON.stringify(seen));
    } finally {
      await (await RunnerClient.fromWorkspace(ws).catch(() => undefined))?.close();
      await mcp.close();
    }
  });

  it('MCP: finish with a progress token sends progress notifications that only grow, naming candidates', async () => {
    const ws = twoCandidates();
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--dir', ws], stderr: 'ignore' });
    const mcp = new Client({ name: 'test', version: '0' });
    await mcp.connect(transport);
    const seen: { progress: number; message?: string }[] = [];
    try {
      const r = (await mcp.callTool({ name: 'finish', arguments: {} }, undefined, { timeout: 170_000, onprogress: (p) => seen.push(p) })) as { isError?: boolean; content: { text: string }[] };
      assert.ok(!r.isError, r.content[0]?.text);
      assert.match(r.content[0]!.text, /^run complete/);
      assert.ok(seen.length >= 2, JSON.stringify(seen));
      for (let i = 1; i < seen.length; i++) assert.ok(seen[i]!.progress >= seen[i - 1]!.progress, JSON.stringify(seen));
      assert.ok(seen.some((p) => p.message === 'validation: 2/2 candidates, 8/8 episodes'), JSON.stringify(seen));
      // The baselines count on after the assessment, one after the other (the order above says they never go backwards).
      const baselines = seen.map((p) => p.message ?? '').filter((m) => m.includes('baseline'));
      assert.deepEqual([baselines[0], baselines.at(-1)], ['starter baseline: 0/4 episodes', 'uniform-random baseline: 4/4 episodes'], JSON.stringify(seen));
      assert.equal(seen.at(-1)!.progress, 8 + 4 + 4 + 4, 'validation, assessment and both baselines, every episode counted once');
    } finally {
      await (await RunnerClient.fromWorkspace(ws).catch(() => undefined))?.close();
      await mcp.close();
    }
  });
});
