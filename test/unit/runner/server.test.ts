import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WebSocket, WebSocketServer } from 'ws';
import type { ProgressNotification } from '../../../src/protocol/run';
import { RunErrorCode } from '../../../src/protocol/run';
import { RunClientError, RunnerClient } from '../../../src/runner/client';
import type { RunnerHost } from '../../../src/runner/host';
import { cartPolicy, cleanupTmp, closeSharedExecutor, connect, makeWorkspace, startHost, useTempDataDir, writePolicy } from './helpers';

/** Opens a raw socket; resolves with the HTTP status and body of a refused upgrade, or 101 when accepted. */
function handshakeReply(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => {
      ws.close();
      resolve({ status: 101, body: '' });
    });
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.once('error', () => undefined);
  });
}

async function handshake(url: string, headers: Record<string, string>): Promise<number> {
  return (await handshakeReply(url, headers)).status;
}

function nextMessage(ws: WebSocket): Promise<{ id?: unknown; error?: { code: number; message: string; data?: { reason?: string } }; result?: unknown }> {
  return new Promise((resolve) => ws.once('message', (d) => resolve(JSON.parse(d.toString()) as never)));
}

describe('runner: WebSocket server', function () {
  this.timeout(60_000);
  let dir: string;
  let host: RunnerHost;

  before(async () => {
    useTempDataDir();
    dir = makeWorkspace({ budget: 32 });
    host = await startHost(dir, { maxMessageBytes: 64 * 1024 });
  });
  after(async () => {
    await host.close();
    await closeSharedExecutor();
    cleanupTmp();
  });

  it('writes runner.json with port, token and pid, mode 0600, on loopback', () => {
    const file = path.join(dir, '.policyforge', 'runner.json');
    const info = JSON.parse(fs.readFileSync(file, 'utf8')) as { port: number; token: string; pid: number; host: string };
    assert.equal(info.port, host.port);
    assert.equal(info.token, host.token);
    assert.equal(info.pid, process.pid);
    assert.equal(info.host, '127.0.0.1');
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  });

  it('refuses connections without the token or with a wrong one', async () => {
    const url = `ws://127.0.0.1:${host.port}/`;
    assert.equal(await handshake(url, {}), 401);
    assert.equal(await handshake(url, { authorization: 'Bearer nope' }), 401);
    assert.equal(await handshake(`${url}?token=${host.token.slice(0, -1)}x`, {}), 401);
    assert.equal(await handshake(url, { authorization: `Bearer ${host.token}` }), 101);
    assert.equal(await handshake(`${url}?token=${host.token}`, {}), 101);
  });

  it('refuses browser origins even with the right token', async () => {
    const url = `ws://127.0.0.1:${host.port}/`;
    assert.equal(await handshake(url, { authorization: `Bearer ${host.token}`, origin: 'http://localhost:3000' }), 403);
    assert.equal(await handshake(url, { authorization: `Bearer ${host.token}`, origin: 'vscode-webview://abc' }), 403);
  });

  it('answers malformed and oversized frames with errors and keeps the connection', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/`, { headers: { authorization: `Bearer ${host.token}` } });
    await new Promise((r) => ws.once('open', r));
    ws.send('{not json');
    const parse = await nextMessage(ws);
    assert.equal(parse.error?.code, -32700);
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'run.status', params: { bogus: true } }));
    const bad = await nextMessage(ws);
    assert.equal(bad.id, 1);
    assert.equal(bad.error?.code, RunErrorCode.malformedRequest);
    assert.match(bad.error?.message ?? '', /bogus/);
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'run.nope', params: {} }));
    assert.equal((await nextMessage(ws)).error?.code, -32601);
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'run.status', params: { pad: 'x'.repeat(100 * 1024) } }));
    const big = await nextMessage(ws);
    assert.equal(big.error?.code, RunErrorCode.messageTooLarge);
    assert.equal(big.error?.data?.reason, 'message_too_large');
    ws.send(Buffer.from([1, 2, 3]), { binary: true });
    assert.equal((await nextMessage(ws)).error?.code, -32700);
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'run.status', params: {} }));
    const ok = await nextMessage(ws);
    assert.equal(ok.id, 4);
    assert.equal((ok.result as { phase: string }).phase, 'agent', 'the connection and the run go on');
    ws.close();
  });

  it('serializes submissions from two clients and sends every notification to both', async () => {
    writePolicy(dir, cartPolicy(0.5));
    const a = await connect(host);
    const b = await connect(host);
    const seen = { a: [] as ProgressNotification[], b: [] as ProgressNotification[], aSubmitted: [] as number[], bSubmitted: [] as number[] };
    a.on('run.progress', (p) => seen.a.push(p));
    b.on('run.progress', (p) => seen.b.push(p));
    a.on('run.submitted', (s) => seen.aSubmitted.push(s.summary.submission));
    b.on('run.submitted', (s) => seen.bSubmitted.push(s.summary.submission));
    const [ra, rb] = await Promise.all([a.submit({ cases: '0-3' }), b.submit({ cases: '4-7' })]);
    assert.deepEqual([ra.submission, rb.submission].sort(), [1, 2]);
    assert.equal(rb.budget.used - ra.budget.used === 4 || ra.budget.used - rb.budget.used === 4, true, 'one ran after the other');
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(seen.aSubmitted, [1, 2]);
    assert.deepEqual(seen.bSubmitted, [1, 2]);
    assert.deepEqual(seen.a, seen.b, 'both clients got the same progress stream');
    assert.ok(seen.a.some((p) => p.submission === 1 && p.done === 4 && p.total === 4));
    assert.ok(seen.a.some((p) => p.submission === 2 && p.done === 4 && p.total === 4));
    await a.close();
    await b.close();
  });

  it('a client reports a refused connection clearly, with the runner\'s reason', async () => {
    await assert.rejects(RunnerClient.connect({ port: host.port, token: 'wrong' }), /refused the connection: HTTP 401 missing or wrong runner token/);
  });

  it('refuses a client that speaks another protocol version, saying which; clients that do not say are served', async () => {
    const url = `ws://127.0.0.1:${host.port}/`;
    const auth = { authorization: `Bearer ${host.token}` };
    const refused = await handshakeReply(url, { ...auth, 'policyforge-protocol': '99' });
    assert.equal(refused.status, 426);
    assert.match(refused.body, /this runner speaks PolicyForge protocol 1, the client 99/);
    assert.equal(await handshake(url, { ...auth, 'policyforge-protocol': '1' }), 101);
    assert.equal(await handshake(url, auth), 101);
  });
});

describe('runner client: what it accepts from a runner', () => {
  let wss: WebSocketServer;
  let client: RunnerClient;
  /** What the fake runner answers to each request, by method. */
  let replies: Record<string, unknown>;

  beforeEach(async () => {
    replies = {};
    wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise((r) => wss.once('listening', r));
    wss.on('connection', (socket) =>
      socket.on('message', (data) => {
        const req = JSON.parse(data.toString()) as { id: number; method: string };
        socket.send(JSON.stringify({ jsonrpc: '2.0', id: req.id, result: replies[req.method] }));
      }),
    );
    const address = wss.address();
    assert.ok(address !== null && typeof address !== 'string');
    client = await RunnerClient.connect({ port: address.port, token: 'any' });
  });
  afterEach(async () => {
    await client.close();
    await new Promise((r) => wss.close(r));
  });

  const sendToClient = (frame: unknown): void => {
    for (const socket of wss.clients) socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  };

  it('drops a malformed notification, says why, and passes the valid ones on', async () => {
    const progress: ProgressNotification[] = [];
    const malformed: string[] = [];
    client.on('run.progress', (p) => progress.push(p));
    client.on('malformed', (m) => malformed.push(m));
    const valid = { phase: 'submit', submission: 3, done: 1, total: 4 };
    sendToClient({ jsonrpc: '2.0', method: 'run.progress', params: { ...valid, done: 'one' } });
    sendToClient({ jsonrpc: '2.0', method: 'run.progress', params: { ...valid, phase: 'training' } });
    sendToClient({ jsonrpc: '2.0', method: 'run.submitted', params: { summary: { submission: 3 } } });
    sendToClient({ jsonrpc: '2.0', method: 'run.exploded', params: {} });
    sendToClient('{not json');
    sendToClient({ jsonrpc: '2.0', method: 'run.progress', params: valid });
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(progress, [valid], 'only the valid notification reached the listener');
    assert.equal(malformed.length, 5);
    assert.match(malformed[0] ?? '', /malformed run\.progress notification: done: /);
    assert.match(malformed[1] ?? '', /malformed run\.progress notification: phase: /);
    assert.match(malformed[2] ?? '', /malformed run\.submitted notification: summary\.checkpoint: /);
    assert.match(malformed[3] ?? '', /unknown notification "run\.exploded"/);
    assert.match(malformed[4] ?? '', /not JSON/);
    assert.ok(client.open, 'the connection goes on');
  });

  it('rejects a reply that does not match the method table, naming the field', async () => {
    replies['run.cancel'] = { cancelled: 'yes', submission: null };
    await assert.rejects(client.cancel(), (e: unknown) => e instanceof RunClientError && e.reason === 'malformed_reply' && /run\.cancel reply .*cancelled: /.test(e.message));
    replies['run.cancel'] = { cancelled: true, submission: 2 };
    assert.deepEqual(await client.cancel(), { cancelled: true, submission: 2 });
    replies['run.report'] = null;
    assert.equal(await client.report(), null);
  });
});
