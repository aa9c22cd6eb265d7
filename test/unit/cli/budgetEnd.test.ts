import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { lastBudgetDecision } from '../../../src/cli/commands/submit';
import { RunnerClient } from '../../../src/runner/client';
import { processAlive, readRunnerFile } from '../../../src/runner/runnerFile';
import { finishCandidatesExample, lastBudgetDeclined, lastBudgetWarning, requestedEpisodes } from '../../../src/stats/reportText';
import { cartPolicy, cleanupTmp, CLI, makeWorkspace, useTempDataDir, writePolicy } from '../runner/helpers';
import { pf } from './cliHelpers';

type Brief = { submission: number; mean: number; count: number; okCount: number };
const brief = (submission: number, mean: number, count = 8, okCount = count): Brief => ({ submission, mean, count, okCount });
/** `run.status` as the warning reads it: the budget, and submissions 1 and 2 so far unless told otherwise. */
const budget = (used: number, total: number, history: Brief[] = [brief(1, 10), brief(2, 20)]) => ({ budget: { used, total, remaining: total - used }, history });

describe('the end of the budget: a warning before the submit that spends it', function () {
  this.timeout(300_000);
  const workspaces: string[] = [];
  before(() => useTempDataDir());
  after(() => {
    for (const dir of workspaces) {
      const f = readRunnerFile(dir);
      if (f && processAlive(f.pid)) process.kill(f.pid, 'SIGTERM');
    }
    cleanupTmp();
  });
  const workspace = (total: number): string => {
    const dir = makeWorkspace({ budget: total, validationCases: 2, heldOutCases: 2 });
    workspaces.push(dir);
    return dir;
  };

  describe('when to warn and when to ask', () => {
    it('counts what a request charges, repeats included', () => {
      assert.equal(requestedEpisodes({ episodes: 3 }), 3);
      assert.equal(requestedEpisodes({ cases: '0-3,2,2' }), 6);
      assert.equal(requestedEpisodes({ cases: [5, 5] }), 2);
      assert.equal(requestedEpisodes({ cases: 'abc' }), null, 'the runner refuses what does not parse');
    });

    it('warns only for the submit that spends exactly what is left', () => {
      assert.equal(lastBudgetWarning(2, budget(6, 8), 'cli')?.startsWith('warning: this submit spends the last 2 episodes of the budget (6/8 used so far), so the run ends with it'), true);
      assert.equal(lastBudgetWarning(1, budget(6, 8), 'cli'), null, 'budget stays');
      assert.equal(lastBudgetWarning(3, budget(6, 8), 'cli'), null, 'over budget: refused by the runner, nothing runs');
      assert.equal(lastBudgetWarning(null, budget(6, 8), 'cli'), null);
      assert.equal(lastBudgetWarning(0, budget(8, 8), 'cli'), null);
      assert.match(lastBudgetWarning(2, budget(6, 8), 'cli')!, /run `policyforge finish --candidates 1,2` instead of this submit \(submissions 1-2, every one so far; the 2 episodes left stay unused\)\.$/);
      assert.match(lastBudgetWarning(2, budget(6, 8), 'mcp')!, /call the `finish` tool with `candidates: \[1, 2\]` instead/);
      assert.match(lastBudgetWarning(2, budget(6, 8), 'lm')!, /call the policyforge_finish tool with `candidates: \[1, 2\]` instead/);
    });

    it('names the run\'s own submissions: the best few train means, only ones finish accepts', () => {
      // #4 is a practice number (not in history), #5 ran nothing; #7 and #8 tie for third place, and the later one wins the tie.
      const history = [brief(1, 5), brief(2, 30, 8, 6), brief(3, 12), brief(5, NaN, 0), brief(6, 31), brief(7, 29), brief(8, 29)];
      assert.deepEqual(finishCandidatesExample(history), { example: [2, 6, 8], among: [1, 2, 3, 6, 7, 8] });
      assert.match(lastBudgetWarning(8, budget(8, 16, history), 'cli')!, /run `policyforge finish --candidates 2,6,8` instead of this submit \(the 3 best train means among submissions 1-3,6-8; the 8 episodes left stay unused\)\.$/);
      assert.match(lastBudgetWarning(8, budget(8, 16, [brief(3, 1)]), 'mcp')!, /`candidates: \[3\]` instead of this submit \(submission 3, the only one so far;/);
      assert.equal(lastBudgetDeclined(history, 'cli'), 'not submitted, nothing was charged: to end the run with the candidates you choose, run `policyforge finish --candidates 2,6,8` (the 3 best train means among submissions 1-3,6-8)');
    });

    it('names none before the first submission, and says why', () => {
      const w = lastBudgetWarning(8, budget(0, 8, []), 'cli')!;
      assert.doesNotMatch(w, /--candidates/);
      assert.match(w, /No submission exists yet, so this one will be the run's only candidate: to keep a choice between policies, submit fewer episodes first\.$/);
      assert.doesNotMatch(lastBudgetDeclined([], 'cli'), /--candidates/);
    });

    it('asks only a person at a terminal who did not say --yes', () => {
      const w = 'warning: …';
      assert.equal(lastBudgetDecision({ warning: null, yes: false, json: false, interactive: true }), 'none');
      assert.equal(lastBudgetDecision({ warning: w, yes: false, json: false, interactive: true }), 'ask');
      assert.equal(lastBudgetDecision({ warning: w, yes: true, json: false, interactive: true }), 'warn');
      assert.equal(lastBudgetDecision({ warning: w, yes: false, json: true, interactive: true }), 'warn');
      assert.equal(lastBudgetDecision({ warning: w, yes: false, json: false, interactive: false }), 'warn');
    });
  });

  it('CLI without a terminal: prints the warning first and runs; --json carries it', () => {
    const dir = workspace(6);
    writePolicy(dir, cartPolicy(0.5));
    for (const cases of ['0-1', '2-3']) {
      const early = pf(dir, 'submit', '--cases', cases);
      assert.equal(early.code, 0, early.err);
      assert.doesNotMatch(early.err, /warning/, 'no warning while budget stays');
    }
    const existing = (pf(dir, 'status', '--json').json() as { status: { history: { submission: number }[] } }).status.history.map((h) => h.submission);
    const last = pf(dir, 'submit', '--cases', '4-5');
    assert.equal(last.code, 0, last.err);
    // First on stderr, before any progress of the validation that follows.
    assert.match(last.err, /^warning: this submit spends the last 2 episodes of the budget \(4\/6 used so far\), so the run ends with it: .* To choose the candidates yourself, run `policyforge finish --candidates 1,2` instead of this submit \(submissions 1-2, every one so far; the 2 episodes left stay unused\)\.\n/);
    const named = /--candidates ([\d,]+)`/.exec(last.err)![1]!.split(',').map(Number);
    assert.deepEqual(named, existing, 'the example names the submissions the run has');
    assert.match(last.out, /That submit spent the last of the budget, so the run has ended/);

    const other = workspace(2);
    writePolicy(other, cartPolicy(0.5));
    const json = pf(other, 'submit', '--episodes', '2', '--json').json() as { warnings: string[]; report: unknown };
    assert.match(json.warnings.at(-1)!, /^warning: this submit spends the last 2 episodes/);
    assert.match(json.warnings.at(-1)!, /No submission exists yet, so this one will be the run's only candidate/, 'no example to give before the first submission');
    assert.ok(json.report, 'and the report');
  });

  it('CLI at a terminal: asks, and a "no" submits nothing', function () {
    if (spawnSync('script', ['--version']).status !== 0) this.skip(); // util-linux `script` gives the CLI a pseudo-terminal
    const dir = workspace(2);
    writePolicy(dir, cartPolicy(0.5));
    const inTerminal = (answer: string, ...args: string[]) =>
      spawnSync('script', ['-qec', [process.execPath, CLI, ...args].map((a) => `'${a}'`).join(' '), '/dev/null'], { cwd: dir, input: `${answer}\n`, encoding: 'utf8', timeout: 120_000 });
    const no = inTerminal('n', 'submit', '--cases', '0-1');
    assert.equal(no.status, 1, no.stdout);
    assert.match(no.stdout, /Spend the last of the budget and end the run\? \[y\/N\]/);
    assert.match(no.stdout, /not submitted, nothing was charged: no submission exists yet to name as a candidate/);
    assert.match(pf(dir, 'status').out, /budget 0\/2 used/);
    const yes = inTerminal('y', 'submit', '--cases', '0-1');
    assert.equal(yes.status, 0, yes.stdout);
    assert.match(yes.stdout, /That submit spent the last of the budget/);
  });

  it('MCP over stdio: type errors and the end of the budget are logged before anything is charged, returned with the result, and strict refuses', async () => {
    const dir = workspace(4);
    // A type error, and act()s slow enough that a charge could not slip in before the check below.
    writePolicy(dir, cartPolicy(0.5, 'const label: number = "x"; let x = 0; for (let i = 0; i < 20000; i++) x += Math.sqrt(i); if (x < 0 || label === 2) return 0;'));
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--dir', dir], stderr: 'ignore' });
    const mcp = new Client({ name: 'test', version: '0' });
    let runner: RunnerClient | undefined;
    const logged: { text: string; usedThen: Promise<number> }[] = [];
    mcp.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logged.push({ text: String(n.params.data), usedThen: runner ? runner.status().then((s) => s.budget.used) : Promise.resolve(-1) });
    });
    await mcp.connect(transport);
    try {
      const text = async (args: Record<string, unknown>) => {
        const r = (await mcp.callTool({ name: 'submit', arguments: args }, undefined, { timeout: 170_000 })) as { isError?: boolean; content: { text: string }[] };
        return { isError: r.isError ?? false, text: r.content[0]!.text };
      };
      await mcp.callTool({ name: 'status', arguments: {} }); // starts the runner
      runner = await RunnerClient.fromWorkspace(dir);

      const strict = await text({ cases: '0-1', strict: true });
      assert.ok(strict.isError);
      assert.match(strict.text, /^type_errors: /);
      assert.equal(logged.length, 0, 'a strict submit refuses instead of warning');

      const first = await text({ cases: '0-1' });
      assert.equal(logged.length, 1);
      assert.match(logged[0]!.text, /^warning: policy\/ has 1 type error\(s\); it runs anyway and is charged \(`strict: true` refuses instead\):\n {2}policy\/policy\.ts:4:11 /);
      assert.equal(await logged[0]!.usedThen, 0, 'logged while nothing was charged yet');
      assert.ok(first.text.startsWith(`${logged[0]!.text}\nsubmission 1 `), first.text.slice(0, 300));

      const last = await text({ cases: '2-3' });
      assert.equal(logged.length, 3);
      assert.match(logged[2]!.text, /^warning: this submit spends the last 2 episodes of the budget \(2\/4 used so far\).* call the `finish` tool with `candidates: \[1\]` instead of this submit \(submission 1, the only one so far;/);
      assert.equal(await logged[2]!.usedThen, 2, 'logged before the last episodes were charged');
      assert.ok(last.text.startsWith(`${logged[1]!.text}\n${logged[2]!.text}\nsubmission 2 `), last.text.slice(0, 600));
      assert.match(last.text, /\n\nThat submit spent the last of the budget, so the run has ended: .*\nrun complete: CartPole-v1 {3}budget 4\/4 used/);
    } finally {
      await runner?.close();
      await mcp.close();
    }
  });
});
