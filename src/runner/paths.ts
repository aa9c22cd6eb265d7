/** Where everything lives inside a workspace. One place, so no module guesses a path. */
import * as path from 'node:path';

export interface WorkspacePaths {
  readonly root: string;
  readonly policy: string;
  readonly feedback: string;
  readonly latest: string;
  readonly state: string;
  readonly runJson: string;
  readonly runnerJson: string;
  readonly events: string;
  readonly report: string;
  readonly checkpoints: string;
  readonly agentsMd: string;
  submissionDir(n: number): string;
  checkpointDir(id: string): string;
}

export function submissionName(n: number): string {
  return `submit-${String(n).padStart(4, '0')}`;
}

export function caseFileName(caseIndex: number, ext: string): string {
  return `case-${String(caseIndex).padStart(3, '0')}.${ext}`;
}

export function workspacePaths(root: string): WorkspacePaths {
  const abs = path.resolve(root);
  const state = path.join(abs, '.policyforge');
  return {
    root: abs,
    policy: path.join(abs, 'policy'),
    feedback: path.join(abs, 'feedback'),
    latest: path.join(abs, 'feedback', 'latest.json'),
    state,
    runJson: path.join(state, 'run.json'),
    runnerJson: path.join(state, 'runner.json'),
    events: path.join(state, 'events.jsonl'),
    report: path.join(state, 'report.json'),
    checkpoints: path.join(state, 'checkpoints'),
    agentsMd: path.join(abs, 'AGENTS.md'),
    submissionDir: (n) => path.join(abs, 'feedback', submissionName(n)),
    checkpointDir: (id) => path.join(state, 'checkpoints', id),
  };
}
