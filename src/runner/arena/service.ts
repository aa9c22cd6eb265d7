/**
 * What the runner's server needs from an arena run: one method per `arena.*` protocol method
 * (src/protocol/arena.ts) and the events it broadcasts. `ArenaRunner` (arenaRunner.ts) is the
 * implementation; the server depends only on this.
 */
import type { EventEmitter } from 'node:events';
import type { z } from 'zod';
import type { ArenaRunReport, ArenaStatus, ArenaSubmissionSummary, ArenaPinParamsSchema, ArenaPoolResultSchema, ArenaProgressNotificationSchema } from '../../protocol/arena';

export type ArenaPoolResult = z.output<typeof ArenaPoolResultSchema>;
export type ArenaProgress = z.output<typeof ArenaProgressNotificationSchema>;

export interface ArenaServiceEvents {
  progress: [ArenaProgress];
  submitted: [ArenaSubmissionSummary];
  completed: [ArenaRunReport];
}

export interface ArenaService extends EventEmitter<ArenaServiceEvents> {
  submit(params: { note?: string; strict?: boolean }): Promise<ArenaSubmissionSummary>;
  feedback(submission?: number): ArenaSubmissionSummary;
  status(): ArenaStatus;
  pin(params: z.output<typeof ArenaPinParamsSchema>): Promise<ArenaPoolResult>;
  drop(opponent: string): Promise<ArenaPoolResult>;
  /** Stops the submission being played (`run.cancel` on an arena run): rolled back, nothing charged. */
  cancel(): { cancelled: boolean; submission: number | null };
  finish(): Promise<ArenaRunReport>;
  report(): ArenaRunReport | null;
  /** Nothing running or queued (idle shutdown). */
  readonly idle: boolean;
  close(): Promise<void>;
}
