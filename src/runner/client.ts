/**
 * The typed runner client used by the CLI, the MCP server, the autotune agent and the VS Code
 * extension: connect (from runner.json or a port+token), call methods, listen to notifications.
 */
import { EventEmitter } from 'node:events';
import { JSONRPCClient, type JSONRPCResponse } from 'json-rpc-2.0';
import { WebSocket } from 'ws';
import type { RunReport, SubmissionSummary } from '../protocol/feedback';
import type {
  CancelResult,
  RestoreResult,
  RunInfo,
  RunMethod,
  RunMethods,
  RunNotification,
  RunNotifications,
  RunStatus,
  SubmitParams,
} from '../protocol/run';
import { PROTOCOL_VERSION, PROTOCOL_VERSION_HEADER } from '../protocol/run';
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

export type RunClientEvents = { [N in RunNotification]: [RunNotifications[N]] } & { close: [code: number, reason: string] };

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

  private constructor(private readonly socket: WebSocket) {
    super();
    this.rpc = new JSONRPCClient((payload) => {
      if (socket.readyState !== WebSocket.OPEN) throw new Error('the runner connection is closed');
      socket.send(JSON.stringify(payload));
    });
    socket.on('message', (data) => this.onMessage(data.toString()));
    socket.on('close', (code, reason) => {
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
      return;
    }
    const m = msg as { method?: unknown; id?: unknown; params?: unknown };
    if (typeof m.method === 'string' && m.id === undefined) {
      (this.emit as (e: string, p: unknown) => boolean)(m.method, m.params);
      return;
    }
    this.rpc.receive(msg as JSONRPCResponse);
  }

  /** Calls a method; rejects with RunClientError carrying the runner's code and reason. */
  async request<M extends RunMethod>(method: M, params: RunMethods[M]['params']): Promise<RunMethods[M]['result']> {
    const id = nextRequestId++;
    const response = await this.rpc.requestAdvanced({ jsonrpc: '2.0', id, method, params });
    if (response.error) {
      const data = (response.error.data ?? {}) as Record<string, unknown>;
      throw new RunClientError(response.error.message, response.error.code, typeof data.reason === 'string' ? data.reason : 'error', data);
    }
    return response.result as RunMethods[M]['result'];
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
