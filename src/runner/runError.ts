/** Typed run errors: what a rejected request becomes on the wire (code + stable reason + data). */
import { RunErrorCode, type RunErrorCodeName } from '../protocol/run';

const REASONS: Record<RunErrorCodeName, string> = {
  malformedRequest: 'malformed_request',
  messageTooLarge: 'message_too_large',
  indexOutOfPool: 'index_out_of_pool',
  episodesOutOfBounds: 'episodes_out_of_bounds',
  submissionLimit: 'submission_limit',
  budgetExhausted: 'budget_exhausted',
  bundleDoesNotBuild: 'bundle_does_not_build',
  runFinished: 'run_finished',
  busy: 'busy',
  unknownSubmission: 'unknown_submission',
  cancelled: 'cancelled',
  internal: 'internal',
  typeErrors: 'type_errors',
  wrongRunKind: 'wrong_run_kind',
  poolRefused: 'pool_refused',
};

export class RunError extends Error {
  override name = 'RunError';
  readonly code: number;
  readonly reason: string;
  constructor(kind: RunErrorCodeName, message: string, readonly data: Record<string, unknown> = {}) {
    super(message);
    this.code = RunErrorCode[kind];
    this.reason = REASONS[kind];
  }
}

export function reasonOf(kind: RunErrorCodeName): string {
  return REASONS[kind];
}
