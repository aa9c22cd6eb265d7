/**
 * A suite's folder: `suite.json` (what was asked), `runs/<job id>/` (each run's workspace, or the
 * report a remote worker sent back), `results.csv` (the leaderboard's rows, rewritten as runs
 * finish) and, at the end, `leaderboard.md` and `leaderboard.json`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { scoreRowsToCsv } from '../leaderboard/csv';
import { buildLeaderboard, type LeaderboardOptions } from '../leaderboard/leaderboard';
import { leaderboardMarkdown } from '../leaderboard/format';
import { SUITE_RESULTS, rowsFromReport } from '../leaderboard/sources';
import type { Leaderboard, ScoreRow } from '../leaderboard/types';
import type { RunReport } from '../protocol/feedback';
import type { ExternalAgentSpec, SuiteJob } from './job';
import { readJobReport } from './runJob';

export interface SuiteSpec {
  /** Stable id of the suite (the queue's job ids start with it). */
  id: string;
  envs: string[];
  /** Ids the env list named that this build lacks (not run). */
  missing: string[];
  /** A built-in agent (`autotune`, `random`) or the name of an external one. */
  agent: string;
  /** The external coding agent every job runs, when there is one. */
  external?: ExternalAgentSpec;
  repeats: number;
  budget: number;
  validationCases?: number;
  heldOutCases?: number;
  createdAt: string;
}

export class SuiteFolder {
  constructor(readonly root: string) {}

  get specFile(): string {
    return path.join(this.root, 'suite.json');
  }

  workspace(job: SuiteJob | string): string {
    return path.join(this.root, 'runs', typeof job === 'string' ? job : job.id);
  }

  readSpec(): SuiteSpec | null {
    return fs.existsSync(this.specFile) ? (JSON.parse(fs.readFileSync(this.specFile, 'utf8')) as SuiteSpec) : null;
  }

  writeSpec(spec: SuiteSpec): void {
    fs.mkdirSync(this.root, { recursive: true });
    fs.writeFileSync(this.specFile, `${JSON.stringify(spec, null, 2)}\n`);
  }

  report(job: SuiteJob): RunReport | null {
    return readJobReport(this.workspace(job));
  }

  /** A report that came back from another machine: stored where a local run would have written it. */
  storeReport(job: SuiteJob, report: RunReport): void {
    const dir = path.join(this.workspace(job), '.policyforge');
    fs.mkdirSync(dir, { recursive: true });
    const tmp = path.join(dir, `report.json.${process.pid}.tmp`);
    fs.writeFileSync(tmp, `${JSON.stringify(report, null, 2)}\n`);
    fs.renameSync(tmp, path.join(dir, 'report.json'));
  }

  /** Leaderboard rows of every finished job: the agent (named after the agent) and the report's baselines. */
  rows(jobs: readonly SuiteJob[]): ScoreRow[] {
    return jobs.flatMap((job) => {
      const report = this.report(job);
      return report ? rowsFromReport(report, job.agent) : [];
    });
  }

  writeResults(jobs: readonly SuiteJob[]): void {
    fs.writeFileSync(path.join(this.root, SUITE_RESULTS), scoreRowsToCsv(this.rows(jobs)));
  }

  writeLeaderboard(jobs: readonly SuiteJob[], options: LeaderboardOptions): Leaderboard {
    this.writeResults(jobs);
    const board = buildLeaderboard(this.rows(jobs), options);
    fs.writeFileSync(path.join(this.root, 'leaderboard.json'), `${JSON.stringify(board, null, 2)}\n`);
    fs.writeFileSync(path.join(this.root, 'leaderboard.md'), leaderboardMarkdown(board));
    return board;
  }
}
