/**
 * One recorded run (test/fixtures/runs/cartpole-tie, made by test/fixtures/runs/record.ts with the
 * real runner) fed to every surface's model: they must name the same best submission, the same
 * error groups and print the same numbers. Submissions #1 and #2 tie at 500 (the later one is
 * best); #3 throws one exception at a different step in each of its 8 cases.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatReport, formatStatus, formatSummary } from '../../../src/cli/commands/format';
import { lastResultLensTitle } from '../../../src/extension/codelens/lensText';
import { diagnosticMessage, policyProblems } from '../../../src/extension/diagnostics/errorGroups';
import { statusBarView } from '../../../src/extension/statusBar/statusText';
import { episodeNodes, runNode, submissionNodes } from '../../../src/extension/views/runTreeModel';
import type { RunReport, SubmissionSummary } from '../../../src/protocol/feedback';
import type { RunInfo, RunStatus } from '../../../src/protocol/run';
import { returnScale } from '../../../src/stats/scoreFormat';
import { bestSoFar, bestTrain, errorGroups, scoreFormatOf } from '../../../webview-ui/dashboard/model';
import { computeDiagnostics } from '../../../webview-ui/diagnostics/model';
import { episodeResult, replayScoreFormat } from '../../../webview-ui/replay/model';

function loadRun(name: string): { info: RunInfo; status: RunStatus; report: RunReport; summaries: SubmissionSummary[] } {
  const dir = path.join(__dirname, '..', '..', 'fixtures', 'runs', name);
  const read = <T>(file: string): T => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as T;
  const status = read<RunStatus>('status.json');
  return { info: read('info.json'), status, report: read('report.json'), summaries: status.history.map((h) => read<SubmissionSummary>(`submit-${String(h.submission).padStart(4, '0')}.json`)) };
}

/** Each submission's "mean ± stderr" as every surface prints it (a surface that disagrees fails). */
function printedMeans(run: ReturnType<typeof loadRun>): Map<number, string> {
  const { info, status, report, summaries } = run;
  const byNumber = new Map(summaries.map((s) => [s.submission, s]));
  const tree = new Map(submissionNodes(status, byNumber, report.selected).map((n) => [n.submission, n.description ?? '']));
  const dashboard = scoreFormatOf(summaries);
  const diag = computeDiagnostics(summaries, report.diagnostics);
  const cliStatus = formatStatus(status);
  const out = new Map<number, string>();
  for (const s of summaries) {
    const want = dashboard.meanStderr(s.stats.mean, s.stats.stderr);
    const mean = want.split(' ± ')[0]!;
    assert.ok(tree.get(s.submission)!.startsWith(`${want} · `), `tree: ${tree.get(s.submission)} vs dashboard: ${want}`);
    assert.match(formatSummary(s, status.history), new RegExp(`return mean ${want} \\(`), 'CLI feedback');
    assert.match(cliStatus, new RegExp(`#${s.submission}  mean +${mean}  `), 'CLI status');
    assert.equal(diag.format.score(diag.rows.find((r) => r.submission === s.submission)!.trainMean), mean, 'diagnostics lineage');
    assert.match(lastResultLensTitle(s, status.history) ?? '', new RegExp(`^#${s.submission}: ${want}( ·|$)`), 'CodeLens');
    out.set(s.submission, want);
  }
  const best = bestTrain(summaries)!;
  assert.match(statusBarView(info.envId, status, 'ready').text, new RegExp(` · best ${dashboard.score(best.stats.mean)}( ·|$)`), 'status bar');
  // Every episode as the tree row, the replay header and the dashboard format print it.
  const replayFmt = replayScoreFormat({ returnScale: returnScale(summaries.map((s) => s.stats.mean)), sides: [] });
  for (const s of summaries) {
    for (const ep of s.episodes) {
      const printed = dashboard.score(ep.return);
      const row = episodeNodes(s, status).find((n) => n.caseIndex === ep.caseIndex)!;
      assert.ok(row.description?.startsWith(`${printed} · `), `tree episode: ${row.description} vs ${printed}`);
      assert.equal(episodeResult(ep, { return: NaN, steps: 0 }, replayFmt), `return ${printed} in ${ep.length} steps`);
    }
  }
  return out;
}

const run = loadRun('cartpole-tie');
const { info, status, report, summaries } = run;
const flaky = summaries[2]!;

describe('views agree on one recorded run', () => {
  it('the recording has what the checks rely on: a tie on the train mean and one error at several steps', () => {
    assert.equal(summaries[0]!.stats.mean, summaries[1]!.stats.mean);
    assert.ok(flaky.episodes.every((e) => e.status === 'exception'));
    const steps = new Set(flaky.episodes.map((e) => /at step (\d+)/.exec(e.error?.message ?? '')?.[1]));
    assert.ok(steps.size > 2, `steps ${[...steps].join(', ')}`);
  });

  it('every surface names #2 as the best submission (a tie goes to the later one)', () => {
    const named = {
      runner: status.best?.submission,
      cli: /best train mean: submission (\d+)/.exec(formatStatus(status))?.[1],
      tree: /Best train mean: \S+ \(#(\d+)\)/.exec(runNode(info, status).tooltip ?? '')?.[1],
      treeDuringAgentPhase: /best #(\d+)/.exec(runNode(info, { ...status, phase: 'agent' }).description ?? '')?.[1],
      statusBar: /submission #(\d+)/.exec(statusBarView(info.envId, status, 'ready').tooltip)?.[1],
      dashboard: bestTrain(summaries)?.submission,
      dashboardCurve: bestSoFar(summaries).at(-1)?.best === summaries[1]!.stats.mean ? 2 : undefined,
      diagnostics: computeDiagnostics(summaries, report.diagnostics).best,
      selection: report.selected,
    };
    for (const [surface, n] of Object.entries(named)) assert.equal(String(n), '2', `${surface} names #${n}`);
  });

  it('with a minimum above every submission, no surface names a best train mean', () => {
    // Every submission has 8 episodes: with 9 required none has comparable evidence yet.
    const strict = { ...status, bestMinEpisodes: 9 };
    assert.equal(bestTrain(summaries, strict.bestMinEpisodes), null, 'dashboard');
    assert.match(runNode(info, strict).tooltip ?? '', /Best train mean \(submissions of ≥ 9 episodes\): none yet/, 'tree');
    assert.match(statusBarView(info.envId, strict, 'ready').tooltip, /No best train mean \(submissions of ≥ 9 episodes\) yet/, 'status bar');
    assert.equal(bestTrain(summaries, 8)?.submission, 2, 'dashboard at the minimum the runs meet');
  });

  it('every surface groups the exception into one error, step numbers stripped', () => {
    const message = 'act() threw: Error: sensor glitch: angle reading lost';
    const dashboard = errorGroups(summaries);
    assert.deepEqual(dashboard.map((g) => [g.source, g.status, g.message, g.count, g.cases, g.location?.line]), [['policy', 'exception', message, 8, [0, 1, 2, 3, 4, 5, 6, 7], 4]]);
    const problems = policyProblems(flaky);
    assert.equal(problems.length, 1);
    assert.deepEqual([problems[0]!.file, problems[0]!.line], ['policy/policy.ts', 4]);
    assert.equal(diagnosticMessage(problems[0]!.group, 3), `${message} (8 episodes of submission #3; cases 0-7)`);
    const cli = formatSummary(flaky, status.history).split('\n').filter((l) => l.includes('exception ×'));
    assert.deepEqual(cli, [`    exception ×8 (cases 0-7) at policy/policy.ts:4: ${message}`]);
  });

  it('every surface prints the same numbers, in the run’s format (CartPole: no decimals)', () => {
    assert.deepEqual([...printedMeans(run)], [[1, '500 ± 0'], [2, '500 ± 0'], [3, '31 ± 9']]);
    assert.equal(lastResultLensTitle(flaky, status.history), '#3: 31 ± 9 · 8 failed · structural');
    assert.match(statusBarView(info.envId, status, 'ready').text, / · best 500 · /);
    assert.equal(runNode(info, status).description, status.phase);
    assert.match(runNode(info, status).tooltip ?? '', /Best train mean: 500 \(#2\)/);
    assert.match(formatReport(report, status.history), /validation mean 500 ± 0 {3}train mean 500\n {2}held-out mean 500 ± 0 /);
    assert.deepEqual(flaky.episodes.map((e) => episodeNodes(flaky, status).find((n) => n.caseIndex === e.caseIndex)?.description), flaky.episodes.map((e) => `${e.return} · exception`));
  });

  it('a MiniGrid run prints three decimals everywhere, and names the later of two tied submissions', () => {
    const mg = loadRun('minigrid-starter');
    const printed = printedMeans(mg);
    assert.equal(scoreFormatOf(mg.summaries).decimals, 3);
    for (const text of printed.values()) assert.match(text, /^0\.\d{3} ± 0\.\d{3}$/);
    assert.equal(mg.summaries[0]!.stats.mean, mg.summaries[1]!.stats.mean);
    assert.equal(bestTrain(mg.summaries)?.submission, 2);
    assert.match(runNode(mg.info, { ...mg.status, phase: 'agent' }).description ?? '', /^best #2 · 0\.\d{3}$/);
    assert.equal(computeDiagnostics(mg.summaries, mg.report.diagnostics).best, 2);
  });
});
