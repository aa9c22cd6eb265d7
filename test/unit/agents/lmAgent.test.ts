import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { parseRunReport } from '../../../src/protocol/documents';
import { CLI, cleanupTmp, tmpDir, useTempDataDir } from '../runner/helpers';

/** An OpenAI-compatible endpoint that answers from a script and remembers what it was asked. */
class ScriptedServer {
  readonly requests: { auth: string | undefined; body: { model: string; max_tokens?: number; messages: { role: string; content: string }[] } }[] = [];
  private server!: http.Server;
  constructor(private readonly replies: ({ status: number; body: string } | { content: string; usage?: [number, number] })[]) {}

  async start(): Promise<string> {
    this.server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        this.requests.push({ auth: req.headers.authorization, body: JSON.parse(body) as ScriptedServer['requests'][number]['body'] });
        const next = this.replies.shift();
        if (req.url !== '/v1/chat/completions' || !next) {
          res.writeHead(404).end('{"error":"no more scripted replies"}');
          return;
        }
        if ('status' in next) {
          res.writeHead(next.status, { 'content-type': 'application/json' }).end(next.body);
          return;
        }
        const usage = next.usage ? { prompt_tokens: next.usage[0], completion_tokens: next.usage[1], total_tokens: next.usage[0] + next.usage[1] } : undefined;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: next.content }, finish_reason: 'stop' }], ...(usage ? { usage } : {}) }));
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}

/** The CLI in a child process: the scripted server answers from this one, so it must not block. */
function pf(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: tmpDir('cwd'), env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, out, err })));
}

const policy = (k: string): string => `export class Policy {\n  constructor(_ctx: PolicyContext) {}\n  act(o: Observation): Action {\n    return o[2]! + ${k} * o[3]! > 0 ? 1 : 0;\n  }\n}\n`;

describe('LM agent: policyforge agent against a scripted OpenAI-compatible server', function () {
  this.timeout(180_000);
  before(() => useTempDataDir());
  after(() => cleanupTmp());

  it('runs the loop over real HTTP: refused edits cost no budget, spend is counted and capped', async () => {
    const server = new ScriptedServer([
      { content: 'Plan: tune.\nEDIT policy/policy.ts\n<<<<<<< SEARCH\nreturn 1;\n>>>>>>> REPLACE\n', usage: [1000, 50] },
      { content: `Plan: a damped controller.\nFILE policy/policy.ts\n\`\`\`ts\n${policy('0.5')}\`\`\`\nSUBMIT episodes 4\n`, usage: [1200, 120] },
      { content: 'EDIT policy/policy.ts\n<<<<<<< SEARCH\n    return o[2]! + 0.7 * o[3]! > 0 ? 1 : 0;\n=======\n    return 1;\n>>>>>>> REPLACE\n', usage: [1300, 60] },
      { status: 503, body: '{"error":"overloaded"}' },
      { content: 'FILE ../package.json\n```json\n{}\n```\n', usage: [1300, 30] },
      { content: 'EDIT policy/policy.ts\n<<<<<<< SEARCH\n    return o[2]! + 0.5 * o[3]! > 0 ? 1 : 0;\n=======\n    return o[2]! + 1.0 * o[3]! > 0 ? 1 : 0;\n>>>>>>> REPLACE\nSUBMIT 0-3\n', usage: [1400, 80] },
    ]);
    const baseUrl = await server.start();
    const dir = path.join(tmpDir('lm'), 'ws');
    try {
      const r = await pf(
        { ...process.env, PF_TEST_KEY: 'sk-test' },
        'agent', '--env', 'CartPole-v1', '--budget', '8', '--dir', dir, '--base-url', baseUrl, '--model', 'scripted-1', '--api-key-env', 'PF_TEST_KEY',
        '--price-in', '3', '--price-out', '15', '--json',
      );
      assert.equal(r.code, 0, r.err);
      const out = JSON.parse(r.out) as { ending: string; turns: number; spend: { calls: number; tokensIn: number; tokensOut: number; cost: number }; agent: { submissions: { submission: number; transcript: string }[] }; report: { budget: { used: number }; agent: { ending: string } } };
      assert.equal(out.ending, 'budget_spent');
      assert.equal(out.report.budget.used, 8, 'the refused edits charged nothing: both submissions ran 4 episodes');
      assert.deepEqual(out.spend, { calls: 5, tokensIn: 6200, tokensOut: 340, cost: (6200 * 3 + 340 * 15) / 1e6 });
      assert.deepEqual(out.agent.submissions.map((s) => [s.submission, s.transcript]), [[1, 'lm/turn-0002.json'], [2, 'lm/turn-0005.json']]);

      assert.equal(server.requests.length, 6, 'five replies and one 503 retried');
      assert.ok(server.requests.every((q) => q.auth === 'Bearer sk-test' && q.body.model === 'scripted-1' && typeof q.body.max_tokens === 'number'));
      const prompt = (i: number): string => server.requests[i]!.body.messages.map((m) => m.content).join('\n');
      assert.match(prompt(0), /# PolicyForge task: CartPole-v1/, 'the task text');
      assert.match(prompt(0), /### policy\/policy\.ts/, 'the policy files');
      assert.match(prompt(1), /could not be read.*\n- a SEARCH block for policy\/policy\.ts is malformed/, 'a malformed edit is reported back');
      assert.match(prompt(2), /Submitted as #1/);
      assert.match(prompt(2), /## History[^]*#1 {2}cases 4/, 'the history of scores');
      assert.match(prompt(2), /## Latest feedback\nsubmission 1 /, 'the last feedback summary');
      assert.match(prompt(3), /did not apply[^]*the SEARCH text was not found/);
      assert.match(prompt(5), /only files under policy\/ can be edited/);

      const turn5 = JSON.parse(fs.readFileSync(path.join(dir, '.policyforge', 'agent', 'lm', 'turn-0005.json'), 'utf8')) as { response: string; submission: number; usage: { tokensIn: number }; prompt: unknown[]; written: string[] };
      assert.equal(turn5.submission, 2);
      assert.equal(turn5.usage.tokensIn, 1400);
      assert.deepEqual(turn5.written, ['policy/policy.ts']);
      assert.match(turn5.response, /SUBMIT 0-3/);
      assert.equal(turn5.prompt.length, 2, 'the prompt that produced it is kept');
      const report = parseRunReport(fs.readFileSync(path.join(dir, '.policyforge', 'report.json'), 'utf8'));
      assert.ok(report.ok, report.ok ? '' : report.error);
      assert.equal(report.value.agent?.ending, 'budget_spent', 'report.json carries the typed agent record');
      assert.equal(report.value.agent?.spend?.calls, 5);
      const printed = await pf(process.env, 'report', '--dir', dir);
      assert.match(printed.out, /\nagent LM 127\.0\.0\.1:\d+\/scripted-1: ended because the budget was spent\n {2}spend 5 calls/, 'policyforge report names the agent from report.json');
      const status = await pf(process.env, 'status', '--dir', dir);
      assert.match(status.out, /agent LM 127\.0\.0\.1:\d+\/scripted-1: ended because the budget was spent\n {2}spend 5 calls, 6200 tokens in \/ 340 out, cost 0\.024/);
    } finally {
      await server.close();
    }
  });

  it('stops cleanly at the token cap and leaves the run open when asked', async () => {
    const server = new ScriptedServer([{ content: `FILE policy/policy.ts\n\`\`\`ts\n${policy('0.3')}\`\`\`\n`, usage: [3000, 500] }]);
    const baseUrl = await server.start();
    const dir = path.join(tmpDir('lm-cap'), 'ws');
    try {
      const r = await pf(process.env, 'agent', '--env', 'CartPole-v1', '--budget', '16', '--dir', dir, '--base-url', baseUrl, '--model', 'm', '--max-tokens', '4000', '--batch', '2', '--leave-open', '--json');
      assert.equal(r.code, 0, r.err);
      const out = JSON.parse(r.out) as { ending: string; spend: { calls: number }; report: unknown; status: { phase: string; budget: { used: number } } };
      assert.equal(out.ending, 'token_cap');
      assert.equal(out.spend.calls, 1);
      assert.equal(out.report, null);
      assert.deepEqual([out.status.phase, out.status.budget.used], ['agent', 2], 'the paid-for edit ran; the run stays open');
      assert.equal(server.requests[0]!.body.max_tokens, 4000 - Math.ceil(server.requests[0]!.body.messages.map((m) => m.content).join('\n').length / 4), 'the reply was bounded by the cap');
    } finally {
      await server.close();
    }
  });

  it('ends with a clear error when the endpoint refuses', async () => {
    const server = new ScriptedServer([{ status: 401, body: '{"error":{"message":"invalid api key"}}' }]);
    const baseUrl = await server.start();
    try {
      const r = await pf(process.env, 'agent', '--env', 'CartPole-v1', '--budget', '4', '--base-url', baseUrl, '--model', 'm', '--leave-open');
      assert.equal(r.code, 1, r.err);
      assert.match(r.out, /ended because the model endpoint failed \(.*HTTP 401: \{"error":\{"message":"invalid api key"\}\}\)/);
      assert.equal(server.requests.length, 1, 'a 401 is not retried');
      fs.rmSync(/workspace: (.*)/.exec(r.out)![1]!, { recursive: true, force: true });
    } finally {
      await server.close();
    }
  });
});
