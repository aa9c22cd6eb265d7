/**
 * A whole run read back from a workspace laid out the way the runner writes it
 * (src/runner/checkpoints.ts, feedbackStore.ts, journal.ts), through the API and the CLI.
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { analyzeRun, editSummaryForCheckpoints, runDiagnosticsForWorkspace } from '../../../src/analysis';
import { removeDir, tempDir, writeTree } from './helpers';

const run = promisify(execFile);
const REPO = path.join(__dirname, '../../..');
const FIXTURES = path.join(REPO, 'test/fixtures/analysis');

function readPolicy(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else out[r] = fs.readFileSync(path.join(dir, r), 'utf8');
    }
  };
  walk('');
  return out;
}

/** Writes one submission: checkpoint (policy/ copy, bundle.js, manifest.json) and summary.json. */
function submit(ws: string, n: number, id: string, policy: Record<string, string>, mean: number, used: number): void {
  const ck = path.join(ws, '.policyforge/checkpoints', id);
  writeTree(ck, Object.fromEntries(Object.entries(policy).map(([p, t]) => [`policy/${p}`, t])));
  writeTree(ck, { 'bundle.js': '/* bundle */\n', 'manifest.json': JSON.stringify({ id, files: Object.keys(policy).map((p) => ({ path: `policy/${p}`, bytes: 1 })) }) });
  const summary = { submission: n, checkpoint: id, createdAt: '2026-01-01T00:00:00Z', envId: 'CartPole-v1', cases: [0], episodes: [], stats: { mean, std: 0, stderr: 0, min: mean, max: mean, okCount: 1, count: 1 }, statusCounts: { ok: 1 }, wallMs: 1, budget: { total: 128, used, remaining: 128 - used }, files: { trajectories: [], logs: [], evicted: false } };
  writeTree(ws, { [`feedback/submit-${String(n).padStart(4, '0')}/summary.json`]: JSON.stringify(summary) });
}

describe('analysis: whole runs', () => {
  let ws: string;
  const base = readPolicy(path.join(FIXTURES, 'cp-retune-gain/parent'));
  const retuned = readPolicy(path.join(FIXTURES, 'cp-retune-gain/child'));
  const helper = readPolicy(path.join(FIXTURES, 'cp-helper-function/child'));

  before(() => {
    ws = tempDir('run');
    submit(ws, 1, 'a'.repeat(64), base, 50, 8);
    submit(ws, 2, 'b'.repeat(64), retuned, 80, 16);
    submit(ws, 3, 'c'.repeat(64), helper, 40, 24);
    // Restored submission 2, then edited: the parent of 4 is 2 (the journal says so), and 4 is the same code as 2.
    submit(ws, 4, 'd'.repeat(64), retuned, 90, 32);
    const events = [
      { type: 'submitted', submission: 1, checkpoint: 'a'.repeat(64), parent: null },
      { type: 'submitted', submission: 2, checkpoint: 'b'.repeat(64), parent: 1 },
      { type: 'submitted', submission: 3, checkpoint: 'c'.repeat(64), parent: 2 },
      { type: 'restored', submission: 2, checkpoint: 'b'.repeat(64) },
      { type: 'submitted', submission: 4, checkpoint: 'd'.repeat(64), parent: 2 },
      { type: 'validated', submission: 2, checkpoint: 'b'.repeat(64), stats: { mean: 70 } },
      { type: 'validated', submission: 4, checkpoint: 'd'.repeat(64), stats: { mean: 75 } },
    ];
    writeTree(ws, { '.policyforge/events.jsonl': `${events.map((e, i) => JSON.stringify({ seq: i + 1, at: 'x', ...e })).join('\n')}\n{"torn` });
  });
  after(() => removeDir(ws));

  it('re-derives lineage (restores included), edits, metrics and diagnostics', async () => {
    const r = await analyzeRun(ws);
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.submissions.map((s) => [s.submission, s.parent, s.edit?.class]), [[1, null, 'initial'], [2, 1, 'parametric'], [3, 2, 'structural'], [4, 2, 'identical']]);
    assert.deepEqual(r.submissions[1]!.edit!.details, ['Policy.gain: 0.5 → 0.7 (policy.ts:7)']);
    assert.equal(r.submissions[2]!.edit!.parent, 2);
    assert.equal(r.submissions[2]!.metrics!.functions, r.submissions[1]!.metrics!.functions + 1);
    assert.deepEqual(r.diagnostics.trainProgress.map((p) => p.newBest), [true, true, false, true]);
    assert.deepEqual(r.diagnostics.validationProgress!.map((p) => p.value), [null, 70, null, 75]);
    assert.equal(r.diagnostics.complexity.length, 4);
  });

  it('says which checkpoint is missing instead of failing', async () => {
    const broken = tempDir('broken');
    try {
      fs.cpSync(ws, broken, { recursive: true });
      fs.rmSync(path.join(broken, '.policyforge/checkpoints', 'c'.repeat(64)), { recursive: true });
      const r = await analyzeRun(broken);
      assert.deepEqual(r.problems, [`submission 3: checkpoint ${'c'.repeat(12)} not found under .policyforge/checkpoints/`]);
      assert.equal(r.submissions[2]!.edit, null);
      assert.equal(r.submissions.length, 4);
    } finally {
      removeDir(broken);
    }
  });

  it('the report hook keeps the edits the runner recorded and analyses only the missing ones', async () => {
    const copy = tempDir('recorded');
    try {
      fs.cpSync(ws, copy, { recursive: true });
      const file = path.join(copy, 'feedback/submit-0002/summary.json');
      const summary = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
      summary.edit = { class: 'parametric', parent: 1, linesAdded: 1, linesRemoved: 1, sizeBin: 'small', details: ['recorded by the runner'] };
      fs.writeFileSync(file, JSON.stringify(summary));
      const d = await runDiagnosticsForWorkspace(copy);
      assert.deepEqual(d.trainProgress.map((p) => p.editLabel), ['initial: first submission', 'parametric: recorded by the runner', 'structural: function clamp added (policy.ts)', 'identical: no change (same content hash)']);
    } finally {
      removeDir(copy);
    }
  });

  it("the runner's per-submit hook gives an EditSummary from two checkpoint folders", async () => {
    const ck = (c: string) => path.join(ws, '.policyforge/checkpoints', c.repeat(64));
    assert.deepEqual(await editSummaryForCheckpoints(null, ck('a')), { class: 'initial', parent: null, linesAdded: 0, linesRemoved: 0, sizeBin: 'none', details: ['first submission'] });
    const e = await editSummaryForCheckpoints(ck('b'), ck('c'), 2);
    assert.equal(e?.class, 'structural');
    assert.equal(e?.parent, 2);
    assert.equal(await editSummaryForCheckpoints(ck('b'), path.join(ws, 'nowhere')), undefined);
  });

  describe('CLI', () => {
    // --import tsx (ESM hooks too): main.ts loads each command with import().
    const cli = (...args: string[]) =>
      run(process.execPath, ['--import', 'tsx', '-e', "require('./src/cli/main.ts').main(process.argv.slice(1)).then((c) => { process.exitCode = c; })", ...args], { cwd: REPO }).then(
        (r) => ({ code: 0, ...r }),
        (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
      );

    it('analyze <parent> <child> --json prints the EditAnalysis', async () => {
      const r = await cli('analyze', path.join(FIXTURES, 'mg-bfs-planner-added/parent'), path.join(FIXTURES, 'mg-bfs-planner-added/child'), '--json');
      assert.equal(r.code, 0, r.stderr);
      const a = JSON.parse(r.stdout) as { class: string; structural: { modulesAdded: string[] } };
      assert.equal(a.class, 'structural');
      assert.deepEqual(a.structural.modulesAdded, ['planner.ts']);
    });

    it('analyze <parent> <child> prints the class, details and metrics', async () => {
      const r = await cli('analyze', path.join(FIXTURES, 'cp-retune-gain/parent'), path.join(FIXTURES, 'cp-retune-gain/child'));
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^parametric {2}small: \+1 −1 lines/);
      assert.match(r.stdout, /Policy\.gain: 0\.5 → 0\.7 \(policy\.ts:7\)/);
      assert.match(r.stdout, /cyclomatic total/);
    });

    it('analyze accepts submission numbers and checkpoint ids of the run in --dir', async () => {
      const r = await cli('analyze', '#2', 'cccccccc', '--dir', ws, '--json');
      assert.equal(r.code, 0, r.stderr);
      const a = JSON.parse(r.stdout) as { class: string; details: string[] };
      assert.equal(a.class, 'structural');
      assert.equal(a.details[0], 'function clamp added (policy.ts)');
    });

    it('analyze --run DIR prints one row per submission and the diagnostics', async () => {
      const r = await cli('analyze', '--run', ws);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /4 submissions/);
      assert.match(r.stdout, /^\s+3\s+2\s+24\s+40\.0\s+structural\s+\+6\/−2\s+function clamp added/m);
      assert.match(r.stdout, /edits: 1 structural \(33%\), 1 parametric/);
    });

    it('errors are exit codes with messages: unreadable folder 1, bad usage 2', async () => {
      const missing = await cli('analyze', path.join(ws, 'nope'), path.join(ws, 'nope2'));
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /"[^"]*nope" is not a folder, a submission number or a checkpoint id/);
      const usage = await cli('analyze', 'only-one');
      assert.equal(usage.code, 2);
      assert.match(usage.stderr, /give a parent and a child folder/);
    });
  });
});
