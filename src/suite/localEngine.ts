/**
 * The local engine: the suite's jobs on an embedded queue, at most `parallel` at a time, in this
 * process, sharing one sandbox worker pool. A job that throws is reported and the rest go on.
 */
import type { EnvRegistry } from '../envs/core/registry';
import type { RunReport } from '../protocol/feedback';
import type { EpisodeExecutor } from '../runner/executor';
import type { SuiteJob } from './job';
import { runJob } from './runJob';
import type { SuiteFolder } from './suiteFolder';

export interface JobEvents {
  started?(job: SuiteJob): void;
  progress?(job: SuiteJob, used: number, total: number): void;
  finished?(job: SuiteJob, report: RunReport): void;
  failed?(job: SuiteJob, error: Error): void;
  log?(line: string): void;
}

export interface LocalEngineOptions {
  parallel: number;
  registry: EnvRegistry;
  executor: EpisodeExecutor;
}

/** Runs every job not finished yet; resolves with the ids that failed. */
export async function runLocal(folder: SuiteFolder, jobs: readonly SuiteJob[], opts: LocalEngineOptions, events: JobEvents = {}): Promise<string[]> {
  const queue = jobs.filter((j) => !folder.report(j));
  const failed: string[] = [];
  const worker = async (): Promise<void> => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const current = job;
      events.started?.(current);
      try {
        const report = await runJob(current, folder.workspace(current), {
          registry: opts.registry,
          executor: opts.executor,
          ...(events.log ? { log: events.log } : {}),
          onSubmitted: (used, total) => events.progress?.(current, used, total),
        });
        events.finished?.(current, report);
      } catch (e) {
        failed.push(current.id);
        events.failed?.(current, e instanceof Error ? e : new Error(String(e)));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.parallel, queue.length)) }, worker));
  return failed;
}
