/**
 * The typed runner client used by the CLI, the MCP server, the autotune agent and the VS Code
 * extension: connect (from runner.json or a port+token), call methods, listen to notifications.
 */
import { EventEmitter } from 'node:events';
import { isJSONRPCResponse, JSONRPCClient } from 'json-rpc-2.0';
import { WebSocket } from 'ws';
import { describeIssues } from '../protocol/documents';
import { isRunNotification, RUN_METHOD_SCHEMAS, RUN_NOTIFICATION_SCHEMAS, type RunMethod, type RunNotification, type RunNotificationParams, type RunParams, type RunResult } from '../protocol/methods';
import type { RunReport, SubmissionSummary } from '../protocol/feedback';
import { PROTOCOL_VERSION, PROTOCOL_VERSION_HEADER, RunErrorCode, RunErrorDataSchema, type CancelResult, type CheckResult, type RestoreResult, type RunInfo, type RunStatus, type SubmitParams } from '../protocol/run';
import { readRunnerFile } from './runnerFile';

/** A JSON-RPC error reply from the runner, with its numeric code and stable reason. */
export class RunClientError extends Error {
  override name = 'RunClientError';
  constructor(
    message: string,
    readonly code: number,
    readonly reason: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/**
 * The connection to the runner dropped while a request was waiting for its reply (the runner
 * crashed or was killed). `submission` is the submission the runner was running at that moment,
 * as its last `run.progress` said, or null when none was under way.
 */
export class RunnerLostError extends Error {
  override name = 'RunnerLostError';
  constructor(
    message: string,
    readonly method: string,
    readonly submission: number | null,
  ) {
    super(message);
  }
}

type NotificationEvents = { [N in RunNotification]: [RunNotificationParams<N>] };

export type RunClientEvents = NotificationEvents & {
  close: [code: number, reason: string];
  /** A frame from the runner that does not match the protocol (dropped; the connection goes on). */
  malformed: [problem: string];
};

export interface ConnectOptions {
  host?: string;
  port: number;
  token: string;
  /** Fail if the socket is not open within this many ms. Default 5000. */
  timeoutMs?: number;
}

export class RunnerClient extends EventEmitter<RunClientEvents> {
  private readonly rpc: JSONRPCClient;
  private closedByUs = false;
  /** Set once the runner dropped the connection on its own; pending and later requests fail with RunnerLostError. */
  private lost: string | null = null;
  /** The submission the runner's progress last counted, until its `run.submitted` arrives. */
  private runningSubmission: number | null = null;
  /** One emit per notification, in a mapped type so a generic `N` picks the matching one. */
  private readonly emitters: { readonly [N in RunNotification]: (params: RunNotificationParams<N>) => void } = {
    'run.progress': (p) => {
      if (p.phase === 'submit') this.runningSubmission = p.submission;
      this.emit('run.progress', p);
    },
    'run.submitted': (p) => {
      if (p.summary.submission === this.runningSubmission) this.runningSubmission = null;
      this.emit('run.submitted', p);
    },
    'run.completed': (p) => this.emit('run.completed', p),
    'run.rejected': (p) => this.emit('run.rejected', p),
    'arena.progress': (p) => this.emit('arena.progress', p),
    'arena.submitted': (p) => this.emit('arena.submitted', p),
    'arena.completed': (p) => this.emit('arena.completed', p),
  };

  private constructor(private readonly socket: WebSocket) {
    super();
    this.rpc = new JSONRPCClient((payload) => {
      if (socket.readyState !== WebSocket.OPEN) throw new Error('the runner connection is closed');
      socket.send(JSON.stringify(payload));
    });
    socket.on('message', (data) => this.onMessage(data.toString()));
    socket.on('close', (code, reason) => {
      if (!this.closedByUs) this.lost = `the runner closed the connection (${code}${reason.length ? ` ${reason.toString()}` : ''})`;
      this.rpc.rejectAllPendingRequests(this.closedByUs ? 'connection closed' : `the runner closed the connection (${code}${reason.length ? ` ${reason.toString()}` : ''})`);
      this.emit('close', code, reason.toString());
    });
    // Errors after open surface as close; keep the emitter from throwing on them.
    socket.on('error', () => undefined);
  }

  static connect(opts: ConnectOptions): Promise<RunnerClient> {
    const host = opts.host ?? '127.0.0.1';
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`ws://${host}:${opts.port}/`, { headers: { authorization: `Bearer ${opts.token}`, [PROTOCOL_VERSION_HEADER]: String(PROTOCOL_VERSION) }, handshakeTimeout: opts.timeoutMs ?? 5000 });
      const fail = (e: Error): void => reject(new Error(`cannot connect to the runner at ${host}:${opts.port}: ${e.message}`));
      socket.once('error', fail);
      socket.once('unexpected-response', (_req, res) => {
        socket.removeListener('error', fail);
        socket.on('error', () => undefined);
        // The refusal's reason is in the response body (ws writes it there).
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => {
          const reason = body.trim() || res.statusMessage || '';
          reject(new Error(`the runner at ${host}:${opts.port} refused the connection: HTTP ${res.statusCode}${reason ? ` ${reason}` : ''}`));
          socket.terminate();
        });
        res.on('error', () => reject(new Error(`the runner at ${host}:${opts.port} refused the connection: HTTP ${res.statusCode}`)));
      });
      socket.once('open', () => {
        socket.removeListener('error', fail);
        resolve(new RunnerClient(socket));
      });
    });
  }

  /** Connects to the runner named in `<workspace>/.policyforge/runner.json`. */
  static async fromWorkspace(workspace: string, timeoutMs?: number): Promise<RunnerClient> {
    const f = readRunnerFile(workspace);
    if (!f) throw new Error(`no runner is registered for ${workspace} (.policyforge/runner.json is missing)`);
    return RunnerClient.connect({ host: f.host, port: f.port, token: f.token, timeoutMs });
  }

  private onMessage(text: string): void {
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      this.emit('malformed', `a frame that is not JSON (${text.length} characters)`);
      return;
    }
    if (isJSONRPCResponse(msg)) {
      this.rpc.receive(msg);
      return;
    }
    const method = typeof msg === 'object' && msg !== null && 'method' in msg && typeof msg.method === 'string' ? msg.method : undefined;
    if (method === undefined) {
      this.emit('malformed', 'a frame that is neither a reply nor a notification');
      return;
    }
    if (!isRunNotification(method)) {
      this.emit('malformed', `an unknown notification "${method}"`);
      return;
    }
    this.notify(method, typeof msg === 'object' && msg !== null && 'params' in msg ? msg.params : undefined);
  }

  /** Emits a notification only once its params match the protocol's schema. */
  private notify<N extends RunNotification>(method: N, params: unknown): void {
    const parsed = RUN_NOTIFICATION_SCHEMAS[method].safeParse(params);
    if (!parsed.success) {
      this.emit('malformed', `a malformed ${method} notification: ${describeIssues(parsed.error)}`);
      return;
    }
    this.emitters[method](parsed.data);
  }

  /** Calls a method; rejects with RunClientError carrying the runner's code and reason, or when the reply does not match the protocol. */
  async request<M extends RunMethod>(method: M, params: RunParams<M>): Promise<RunResult<M>> {
    const id = nextRequestId++;
    if (this.lost !== null) throw new RunnerLostError(this.lost, method, null);
    const response = await Promise.resolve(this.rpc.requestAdvanced({ jsonrpc: '2.0', id, method, params })).catch((e: unknown) => {
      // The send itself failed because the socket went away under it.
      throw this.lost !== null ? new RunnerLostError(this.lost, method, method === 'run.submit' ? this.runningSubmission : null) : e;
    });
    if (response.error && this.lost !== null) throw new RunnerLostError(this.lost, method, method === 'run.submit' ? this.runningSubmission : null);
    if (response.error) {
      const data = RunErrorDataSchema.safeParse(response.error.data);
      throw new RunClientError(response.error.message, response.error.code, data.success ? data.data.reason : 'error', data.success ? data.data : {});
    }
    const result = RUN_METHOD_SCHEMAS[method].result.safeParse(response.result);
    if (!result.success) throw new RunClientError(`the runner's ${method} reply does not match the protocol: ${describeIssues(result.error)}`, RunErrorCode.internal, 'malformed_reply');
    return result.data;
  }

  info(): Promise<RunInfo> {
    return this.request('run.info', {});
  }
  status(): Promise<RunStatus> {
    return this.request('run.status', {});
  }
  submit(params: SubmitParams): Promise<SubmissionSummary> {
    return this.request('run.submit', params);
  }
  feedback(submission?: number): Promise<SubmissionSummary> {
    return this.request('run.feedback', submission === undefined ? {} : { submission });
  }
  finish(candidates?: number[]): Promise<RunReport> {
    return this.request('run.finish', candidates ? { candidates } : {});
  }
  cancel(): Promise<CancelResult> {
    return this.request('run.cancel', {});
  }
  restore(submission: number): Promise<RestoreResult> {
    return this.request('run.restore', { submission });
  }
  report(): Promise<RunReport | null> {
    return this.request('run.report', {});
  }
  /**
   * The run's report, once the runner has written it: at once when the run is complete, else when
   * `run.completed` arrives (the submit that spends the last of the budget starts the finish).
   * Rejects with RunnerLostError when the connection drops first.
   */
  awaitReport(): Promise<RunReport> {
    return new Promise<RunReport>((resolve, reject) => {
      const onCompleted = ({ report }: { report: RunReport }): void => done(() => resolve(report));
      const onClose = (): void => done(() => reject(new RunnerLostError('the runner closed the connection while it finished the run', 'run.report', null)));
      const done = (then: () => void): void => {
        this.off('run.completed', onCompleted);
        this.off('close', onClose);
        then();
      };
      this.on('run.completed', onCompleted);
      this.on('close', onClose);
      // Listening first, then asking, so a report finished in between is not missed.
      this.report().then(
        (r) => r && done(() => resolve(r)),
        (e: unknown) => done(() => reject(e)),
      );
    });
  }

  /** The build diagnostics a submit of the current policy/ would meet (nothing runs, nothing is charged). */
  check(): Promise<CheckResult> {
    return this.request('run.check', {});
  }

  /** Sends a raw text frame (tests and diagnostics). */
  sendRaw(text: string | Buffer): void {
    this.socket.send(text);
  }

  get open(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  close(): Promise<void> {
    this.closedByUs = true;
    if (this.socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }
}

let nextRequestId = 1;
