/**
 * `submit` and `finish` on an arena run. A submit plays the current policy/ against the opponent
 * pool (screen, then deep evaluation if it passes) and prints the per-opponent feedback; `finish`
 * validates the candidates against the final pool and assesses the selected one against hidden
 * opponents. Both show their progress in games.
 */
import { SingleBar, Presets } from 'cli-progress';
import type { z } from 'zod';
import type { ArenaProgressNotificationSchema, ArenaRunReport } from '../../protocol/arena';
import type { RunnerClient } from '../../runner/client';
import { arenaProgressText, formatArenaReport, formatArenaSummary } from '../../stats/arenaText';
import { typeErrorWarning } from '../../stats/feedbackText';
import { ExitCode } from '../command';
import { cancelOnInterrupt } from './interrupt';
import { printJson, withClient } from './runClient';

type ArenaProgress = z.output<typeof ArenaProgressNotificationSchema>;

export interface ArenaSubmitOptions {
  dir: string | undefined;
  json: boolean;
  note?: string | undefined;
  strict?: boolean | undefined;
}

export function arenaSubmit(o: ArenaSubmitOptions): Promise<number> {
  return withClient('submit', o.dir, o.json, async ({ client }) => {
    const warnings = o.strict ? [] : typeErrorWarning(await client.check(), '--strict');
    const before = await client.request('arena.status', {});
    const most = before.pool.length * before.options.screenGames + before.options.deepGames;
    if (before.phase === 'agent' && before.budget.remaining <= most) {
      warnings.push(`warning: ${before.budget.remaining} games are left and this submit may use up to ${most}: if it spends the last of them, the run ends and is validated and assessed (\`policyforge finish\` ends it now instead)`);
    }
    for (const w of o.json ? [] : warnings) process.stderr.write(`${w}\n`);
    const stop = attachArenaProgress(client, !o.json);
    const release = cancelOnInterrupt(client, o.json);
    try {
      const summary = await client.request('arena.submit', { ...(o.note ? { note: o.note } : {}), ...(o.strict ? { strict: true } : {}) });
      release();
      const report = summary.budget.remaining === 0 ? await awaitArenaReport(client) : undefined;
      stop();
      if (o.json) printJson({ ok: true, arena: true, summary, ...(warnings.length ? { warnings } : {}), ...(report ? { report } : {}) });
      else {
        process.stdout.write(formatArenaSummary(summary));
        if (report) process.stdout.write(`\nthe budget is spent, so the run has finished:\n${formatArenaReport(report)}`);
      }
      return ExitCode.ok;
    } finally {
      release();
      stop();
    }
  });
}

export function arenaFinish(dir: string | undefined, json: boolean): Promise<number> {
  return withClient('finish', dir, json, async ({ client }) => {
    const alreadyFinished = (await client.request('arena.status', {})).phase === 'complete';
    const stop = attachArenaProgress(client, !json);
    try {
      const report = await client.request('arena.finish', {});
      stop();
      if (json) printJson({ ok: true, arena: true, alreadyFinished, report });
      else process.stdout.write(`${alreadyFinished ? 'the run had already finished; its report:\n' : ''}${formatArenaReport(report)}`);
      return ExitCode.ok;
    } finally {
      stop();
    }
  });
}

/** The report once the runner has written it (the submit that spends the budget starts the finish). */
export function awaitArenaReport(client: RunnerClient): Promise<ArenaRunReport> {
  return new Promise<ArenaRunReport>((resolve, reject) => {
    const onCompleted = ({ report }: { report: ArenaRunReport }): void => done(() => resolve(report));
    const onClose = (): void => done(() => reject(new Error('the runner closed the connection while it finished the run')));
    const done = (then: () => void): void => {
      client.off('arena.completed', onCompleted);
      client.off('close', onClose);
      then();
    };
    client.on('arena.completed', onCompleted);
    client.on('close', onClose);
    // Listening first, then asking, so a report finished in between is not missed.
    client.request('arena.report', {}).then(
      (r) => r && done(() => resolve(r)),
      (e: unknown) => done(() => reject(e)),
    );
  });
}

/** A bar per stage on a terminal; elsewhere a line when a stage starts and when it ends. */
export function attachArenaProgress(client: RunnerClient, enabled: boolean): () => void {
  if (!enabled) return () => undefined;
  let bar: SingleBar | null = null;
  let key = '';
  const tty = Boolean(process.stderr.isTTY);
  const onProgress = (p: ArenaProgress): void => {
    const stage = `${p.submission ?? ''}/${p.phase}/${p.against ?? ''}`;
    if (!tty) {
      const edge = p.done === 0 ? 'start' : p.done === p.total ? 'end' : '';
      if (edge && `${stage}/${edge}` !== key) {
        key = `${stage}/${edge}`;
        process.stderr.write(`${arenaProgressText(p)}\n`);
      }
      return;
    }
    if (!bar || key !== stage) {
      bar?.stop();
      key = stage;
      bar = new SingleBar({ format: `${p.phase.padEnd(11)} [{bar}] {value}/{total} games`, stream: process.stderr, hideCursor: true, clearOnComplete: false }, Presets.shades_classic);
      bar.start(p.total, p.done);
    } else bar.update(p.done);
  };
  client.on('arena.progress', onProgress);
  return () => {
    client.off('arena.progress', onProgress);
    bar?.stop();
    bar = null;
  };
}
