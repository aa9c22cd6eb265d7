/**
 * The runner's WebSocket JSON-RPC server: loopback only, token required, browser origins refused,
 * message size capped. A malformed or oversized frame gets an error reply and the connection
 * goes on. Every client receives every notification.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createJSONRPCErrorResponse, JSONRPCErrorException, JSONRPCServer } from 'json-rpc-2.0';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { describeZodError, PROTOCOL_VERSION, PROTOCOL_VERSION_HEADER, RUN_PARAM_SCHEMAS, RunErrorCode, type RunMethod, type RunNotification, type RunNotifications } from '../protocol/run';
import type { Run } from './run';
import { RunError } from './runError';

export interface RunnerServerOptions {
  host?: string;
  port?: number;
  token?: string;
  /** Largest accepted message, bytes. Larger frames get a `message_too_large` error reply. */
  maxMessageBytes?: number;
  log?: (message: string) => void;
}

export const DEFAULT_MAX_MESSAGE_BYTES = 1024 * 1024;

interface Connection {
  readonly id: number;
  readonly socket: WebSocket;
}

export class RunnerServer {
  private readonly clients = new Set<Connection>();
  private readonly rpc = new JSONRPCServer<Connection>({ errorListener: () => undefined });
  private nextId = 1;

  private constructor(
    private readonly wss: WebSocketServer,
    readonly run: Run,
    readonly token: string,
    readonly host: string,
    readonly port: number,
    private readonly maxMessageBytes: number,
    private readonly log: (m: string) => void,
  ) {
    this.registerMethods();
    run.on('progress', (p) => this.broadcast('run.progress', p));
    run.on('submitted', (summary) => this.broadcast('run.submitted', { summary }));
    run.on('completed', (report) => this.broadcast('run.completed', { report }));
    run.on('rejected', (r) => this.broadcast('run.rejected', r));
  }

  static async start(run: Run, opts: RunnerServerOptions = {}): Promise<RunnerServer> {
    const host = opts.host ?? '127.0.0.1';
    const token = opts.token ?? randomBytes(24).toString('hex');
    const maxMessageBytes = opts.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    const log = opts.log ?? (() => undefined);
    const wss = new WebSocketServer({
      host,
      port: opts.port ?? 0,
      // ws closes the socket above maxPayload; keep that well above our own cap so an oversized
      // message gets a JSON-RPC error reply instead of a dropped connection.
      maxPayload: Math.max(maxMessageBytes * 16, 16 * 1024 * 1024),
      verifyClient: (info: { origin: string; req: IncomingMessage }, cb: (ok: boolean, code?: number, message?: string) => void) => {
        if (info.req.headers.origin !== undefined) {
          log(`refused a connection with browser origin ${info.req.headers.origin}`);
          return cb(false, 403, 'browser origins are not allowed');
        }
        if (!tokenMatches(presentedToken(info.req), token)) {
          log('refused a connection without the runner token');
          return cb(false, 401, 'missing or wrong runner token');
        }
        // Clients that say which protocol they speak must speak ours; a silent mismatch would
        // surface later as confusing schema errors (e.g. an extension newer than its runner).
        const spoken = info.req.headers[PROTOCOL_VERSION_HEADER];
        if (spoken !== undefined && spoken !== String(PROTOCOL_VERSION)) {
          log(`refused a client speaking protocol ${String(spoken)}`);
          return cb(false, 426, `this runner speaks PolicyForge protocol ${PROTOCOL_VERSION}, the client ${String(spoken)}: restart the runner with the same PolicyForge version`);
        }
        cb(true);
      },
    });
    await new Promise<void>((resolve, reject) => {
      wss.once('listening', resolve);
      wss.once('error', reject);
    });
    const port = (wss.address() as AddressInfo).port;
    const server = new RunnerServer(wss, run, token, host, port, maxMessageBytes, log);
    wss.on('connection', (socket) => server.accept(socket));
    return server;
  }

  get clientCount(): number {
    return this.clients.size;
  }

  private accept(socket: WebSocket): void {
    const conn: Connection = { id: this.nextId++, socket };
    this.clients.add(conn);
    socket.on('close', () => this.clients.delete(conn));
    socket.on('error', () => this.clients.delete(conn));
    socket.on('message', (data, isBinary) => void this.onMessage(conn, data, isBinary));
  }

  private async onMessage(conn: Connection, data: RawData, isBinary: boolean): Promise<void> {
    const bytes = rawLength(data);
    if (bytes > this.maxMessageBytes) {
      this.send(conn, createJSONRPCErrorResponse(null, RunErrorCode.messageTooLarge, `message of ${bytes} bytes exceeds the ${this.maxMessageBytes}-byte cap`, { reason: 'message_too_large' }));
      return;
    }
    if (isBinary) {
      this.send(conn, createJSONRPCErrorResponse(null, -32700, 'binary frames are not accepted; send JSON text', { reason: 'malformed_request' }));
      return;
    }
    const text = rawText(data);
    try {
      const response = await this.rpc.receiveJSON(text, conn);
      if (response) this.send(conn, response);
    } catch (e) {
      this.send(conn, createJSONRPCErrorResponse(null, RunErrorCode.internal, `internal error: ${String(e)}`, { reason: 'internal' }));
    }
  }

  private send(conn: Connection, payload: unknown): void {
    if (conn.socket.readyState === WebSocket.OPEN) conn.socket.send(JSON.stringify(payload));
  }

  broadcast<N extends RunNotification>(method: N, params: RunNotifications[N]): void {
    const text = JSON.stringify({ jsonrpc: '2.0', method, params });
    for (const c of this.clients) if (c.socket.readyState === WebSocket.OPEN) c.socket.send(text);
  }

  private registerMethods(): void {
    const method = (name: RunMethod, fn: (params: unknown) => unknown, validate = true): void => {
      this.rpc.addMethod(name, async (params: unknown) => {
        const input = params ?? {};
        if (validate) {
          const parsed = RUN_PARAM_SCHEMAS[name].safeParse(input);
          if (!parsed.success) {
            throw new JSONRPCErrorException(`malformed ${name}: ${describeZodError(parsed.error)}`, RunErrorCode.malformedRequest, { reason: 'malformed_request' });
          }
          return this.call(() => fn(parsed.data));
        }
        return this.call(() => fn(input));
      });
    };
    method('run.info', () => this.run.info());
    // Submit validates inside the run so a malformed submit is journaled like every rejection.
    method('run.submit', (p) => this.run.submit(p), false);
    method('run.status', () => this.run.status());
    method('run.feedback', (p) => this.run.feedback((p as { submission?: number }).submission));
    method('run.finish', (p) => this.run.finish(p));
    method('run.cancel', () => this.run.cancel());
    method('run.restore', (p) => this.run.restore((p as { submission: number }).submission));
    method('run.report', () => this.run.report());
  }

  private async call(fn: () => unknown): Promise<unknown> {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof RunError) throw new JSONRPCErrorException(e.message, e.code, { reason: e.reason, ...e.data });
      this.log(`request failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      throw new JSONRPCErrorException(`internal error: ${e instanceof Error ? e.message : String(e)}`, RunErrorCode.internal, { reason: 'internal' });
    }
  }

  async close(): Promise<void> {
    for (const c of this.clients) c.socket.close(1001, 'runner shutting down');
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}

function presentedToken(req: IncomingMessage): string | undefined {
  const auth = req.headers.authorization;
  if (auth?.startsWith('Bearer ')) return auth.slice(7).trim();
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  return url.searchParams.get('token') ?? undefined;
}

function tokenMatches(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function rawLength(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((n, b) => n + b.length, 0);
  return data instanceof ArrayBuffer ? data.byteLength : data.length;
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return data instanceof ArrayBuffer ? Buffer.from(data).toString('utf8') : data.toString('utf8');
}
