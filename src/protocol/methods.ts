/**
 * The method table of the run protocol: each JSON-RPC method with its params and result schema,
 * each notification with its params schema. The server's handlers, the client's `request` and
 * its notification events take their types from here, and both ends validate against the same
 * schemas, so a method's shape is written once.
 */
import type { z } from 'zod';
import { ARENA_METHODS, ARENA_NOTIFICATIONS } from './arena';
import { runReportSchema, submissionSummarySchema } from './documents';
import { lazySchema } from './lazySchema';
import {
  CancelResultSchema,
  CheckResultSchema,
  CompletedNotificationSchema,
  EmptyParamsSchema,
  FeedbackParamsSchema,
  FinishParamsSchema,
  InfoParamsSchema,
  ProgressNotificationSchema,
  RejectedNotificationSchema,
  RestoreParamsSchema,
  RestoreResultSchema,
  RunInfoSchema,
  RunStatusSchema,
  SubmitParamsSchema,
  SubmittedNotificationSchema,
} from './run';

export const RUN_METHODS = {
  'run.info': { params: InfoParamsSchema, result: RunInfoSchema },
  'run.submit': { params: SubmitParamsSchema, result: submissionSummarySchema },
  'run.status': { params: EmptyParamsSchema, result: RunStatusSchema },
  'run.feedback': { params: FeedbackParamsSchema, result: submissionSummarySchema },
  'run.finish': { params: FinishParamsSchema, result: runReportSchema },
  'run.cancel': { params: EmptyParamsSchema, result: CancelResultSchema },
  'run.restore': { params: RestoreParamsSchema, result: RestoreResultSchema },
  'run.report': { params: EmptyParamsSchema, result: lazySchema(() => runReportSchema.nullable()) },
  /** Builds policy/ as a submit would (same build cache) and returns its diagnostics; runs and charges nothing. */
  'run.check': { params: EmptyParamsSchema, result: CheckResultSchema },
  /** Arena runs (two-sided games): src/protocol/arena.ts. */
  ...ARENA_METHODS,
} as const;

export type RunMethod = keyof typeof RUN_METHODS;

export function isRunMethod(name: string): name is RunMethod {
  return Object.hasOwn(RUN_METHODS, name);
}
export const RUN_METHOD_NAMES: readonly RunMethod[] = Object.keys(RUN_METHODS).filter(isRunMethod);

/** What a client sends (defaults not yet applied). */
export type RunParams<M extends RunMethod> = z.input<(typeof RUN_METHODS)[M]['params']>;
/** What a handler receives after validation. */
export type RunParsedParams<M extends RunMethod> = z.output<(typeof RUN_METHODS)[M]['params']>;
export type RunResult<M extends RunMethod> = z.output<(typeof RUN_METHODS)[M]['result']>;

/**
 * The table seen through a mapped type, so that indexing it with a generic `M` keeps the schemas'
 * types tied to `M` (TypeScript cannot correlate `RUN_METHODS[M]` with `RunResult<M>` otherwise).
 */
export const RUN_METHOD_SCHEMAS: { readonly [M in RunMethod]: { readonly params: z.ZodType<RunParsedParams<M>, RunParams<M>>; readonly result: z.ZodType<RunResult<M>> } } = RUN_METHODS;

export const RUN_NOTIFICATIONS = {
  'run.progress': ProgressNotificationSchema,
  'run.submitted': SubmittedNotificationSchema,
  'run.completed': CompletedNotificationSchema,
  'run.rejected': RejectedNotificationSchema,
  ...ARENA_NOTIFICATIONS,
} as const;

export type RunNotification = keyof typeof RUN_NOTIFICATIONS;
export type RunNotificationParams<N extends RunNotification> = z.output<(typeof RUN_NOTIFICATIONS)[N]>;

export const RUN_NOTIFICATION_SCHEMAS: { readonly [N in RunNotification]: z.ZodType<RunNotificationParams<N>> } = RUN_NOTIFICATIONS;

/** True for the notification names of the table (the client's guard on a wire string). */
export function isRunNotification(name: string): name is RunNotification {
  return Object.hasOwn(RUN_NOTIFICATIONS, name);
}
