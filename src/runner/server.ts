/**
 * The runner's WebSocket JSON-RPC server: loopback only, token required, browser origins refused,
 * message size capped. A malformed or oversized frame gets an error reply and the connection
 * goes on. Every client receives every notification.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { createJSONRPCErrorResponse, JSONRPCErrorException, JSONRPCServer } from 'json-rpc-2.0';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { RUN_METHOD_NAMES, RUN_METHOD_SCHEMAS, type RunMethod, type RunNotification, type RunNotificationParams, type RunParsedParams, type RunResult } from '../protocol/methods';
import { describeZodError, PROTOCOL_VERSION, PROTOCOL_VERSION_HEADER, RunErrorCode } from '../protocol/run';
import type { ArenaService } from './arena/service';
import type { Run } from './run';
import { RunError } from './runError';

export interface RunnerServerOptions {
  host?: string;
  port?: number;
  token?: string;
  /** Largest accepted message, bytes. Larger frames get a `message_too_large` error reply. */
  maxMessageBytes?: number;
  log?: (message: string) => void;
  /** Present when the run is an arena run: serves the `arena.*` methods. */
  arena?: ArenaService;
}

export const DEFAULT_MAX_MESSAGE_BYTES = 1024 * 1024;

/** A method's implementation, typed by the protocol's method table. */
type Handlers = { readonly [M in RunMethod]: (params: RunParsedParams<M>) => RunResult<M> | Promise<RunResult<M>> };

interface Connection {
  readonly id: number;
  readonly socket: WebSocket;
}

export class RunnerServer {
  private readonly clients = new Set<Connection>();
  private readonly rpc = new JSONRPCServer<Connection>({ errorListener: () => undefined });
  private nextId = 1;
  private readonly handlers: Handlers = {
    'run.info': () => this.run.info(),
    'run.submit': (p) => this.run.submit(p),
    'run.status': () => this.run.status(),
    'run.feedback': (p) => this.run.feedback(p.submission),
    'run.finish': (p) => this.run.finish(p),
    'run.cancel': () => (this.arena ? this.arena.cancel() : this.run.cancel()),
    'run.restore': (p) => this.run.restore(p.submission),
    'run.report': () => this.run.report(),
    'run.check': () => this.run.check(),
    'arena.submit': (p) => this.arenaRun().submit(p),
    'arena.feedback': (p) => this.arenaRun().feedback(p.submission),
    'arena.status': () => this.arenaRun().status(),
    'arena.pin': (p) => this.arenaRun().pin(p),
    'arena.drop': (p) => this.arenaRun().drop(p.opponent),
    'arena.finish': () => this.arenaRun().finish(),
    'arena.report': () => this.arenaRun().report(),
  };
  /** Single-agent methods an arena run answers with the arena method to use instead. */
  private static readonly ARENA_REPLACES: Partial<Record<RunMethod, string>> = { 'run.submit': 'arena.submit', 'run.feedback': 'arena.feedback', 'run.finish': 'arena.finish', 'run.report': 'arena.report', 'run.restore': 'a restore of policy/ by hand' };
  /** Methods whose malformed requests the run rejects itself: it journals every rejected submit, malformed ones included. */
  private readonly rejectsItself: { readonly [M in RunMethod]?: (raw: unknown) => Promise<RunResult<M>> } = {
    'run.submit': (raw) => this.run.submit(raw),
  };

  private constructor(
    private readonly wss: WebSocketServer,
    readonly run: Run,
    readonly token: string,
    readonly host: string,
    readonly port: number,
    private readonly maxMessageBytes: number,
    private readonly log: (m: string) => void,
    private readonly arena: ArenaService | undefined,
  ) {
    this.registerMethods();
    arena?.on('progress', (p) => this.broadcast('arena.progress', p));
    arena?.on('submitted', (summary) => this.broadcast('arena.submitted', { summary }));
    arena?.on('completed', (report) => this.broadcast('arena.completed', { report }));
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
    const address = wss.address();
    if (address === null || typeof address === 'string') throw new Error(`the runner server listens on ${address}, not on a TCP port`);
    const port = address.port;
    const server = new RunnerServer(wss, run, token, host, port, maxMessageBytes, log, opts.arena);
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

  broadcast<N extends RunNotification>(method: N, params: RunNotificationParams<N>): void {
    const text = JSON.stringify({ jsonrpc: '2.0', method, params });
    for (const c of this.clients) if (c.socket.readyState === WebSocket.OPEN) c.socket.send(text);
  }

  private registerMethods(): void {
    for (const name of RUN_METHOD_NAMES) this.rpc.addMethod(name, (params: unknown) => this.dispatch(name, params));
  }

  /** Validates the params against the method table, then runs the handler; every failure becomes a JSON-RPC error reply. */
  private dispatch<M extends RunMethod>(name: M, raw: unknown): Promise<RunResult<M>> {
    const instead = this.arena ? RunnerServer.ARENA_REPLACES[name] : undefined;
    if (instead) return Promise.reject(new JSONRPCErrorException(`${name} does not apply to an arena run (${this.run.config.envId}): use ${instead}`, RunErrorCode.wrongRunKind, { reason: 'wrong_run_kind', use: instead }));
    const parsed = RUN_METHOD_SCHEMAS[name].params.safeParse(raw ?? {});
    if (!parsed.success) {
      const own = this.rejectsItself[name];
      if (own) return this.call(() => own(raw));
      return Promise.reject(new JSONRPCErrorException(`malformed ${name}: ${describeZodError(parsed.error)}`, RunErrorCode.malformedRequest, { reason: 'malformed_request' }));
    }
    const handler: Handlers[M] = this.handlers[name];
    return this.call(() => handler(parsed.data));
  }

  private arenaRun(): ArenaService {
    if (!this.arena) throw new RunError('wrongRunKind', `${this.run.config.envId} is not an arena game: arena.* methods need a run on ConnectFour-v0 or CaptureTheFlag-v0`);
    return this.arena;
  }

  private async call<T>(fn: () => T | Promise<T>): Promise<T> {
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
