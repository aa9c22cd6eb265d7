import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { agentEnv, prepareAgentWorkspace } from '../../../src/agents/external/agentWorkspace';
import { readTranscript } from '../../../src/agents/external/transcript';
import { CLI, cleanupTmp, readEvents, REPO, tmpDir, useTempDataDir } from '../runner/helpers';

const SCRIPTED_AGENT = path.join(REPO, 'test', 'fixtures', 'agents', 'scriptedAgent.mjs');

interface AgentRunJson {
  ok: boolean;
  ending: string;
  transcript: string;
  workspace: string;
  agent: { attempts: { attempt: number; exitCode: number | null; startedAt: string; endedAt: string }[]; submissions: { submission: number; line: number }[] };
  report: { budget: { used: number }; agent?: { ending: string } };
}

function runAgent(env: NodeJS.ProcessEnv, ...args: string[]): { code: number | null; out: string; err: string; json: () => AgentRunJson } {
  const r = spawnSync(process.execPath, [CLI, 'run', '--env', 'CartPole-v1', '--json', ...args], { cwd: tmpDir('cwd'), env, encoding: 'utf8', timeout: 150_000 });
  return { code: r.status, out: r.stdout, err: r.stderr, json: () => JSON.parse(r.stdout) as AgentRunJson };
}

describe('external agents: policyforge run --agent-cmd', function () {
  this.timeout(180_000);
  before(() => useTempDataDir());
  after(() => cleanupTmp());

  it('drives a whole run through the CLI and MCP, retrying the crash, with a linked transcript', () => {
    const dir = path.join(tmpDir('agent'), 'ws');
    const backoffMs = 300;
    const r = runAgent(
      { ...process.env, PF_ALLOWED: 'yes', PF_SECRET: 'must-not-leak' },
      '--budget', '8', '--dir', dir, '--agent-cmd', `node ${JSON.stringify(SCRIPTED_AGENT)}`, '--agent-env', 'PF_ALLOWED', '--retry-backoff-ms', String(backoffMs), '--grace', '30',
    );
    assert.equal(r.code, 0, r.err);
    const out = r.json();
    assert.equal(out.ending, 'budget_spent');
    assert.equal(out.report.budget.used, 8);

    const [first, second] = out.agent.attempts;
    assert.equal(out.agent.attempts.length, 2, 'one crash, one retry');
    assert.equal(first!.exitCode, 3);
    assert.equal(second!.exitCode, 0);
    assert.ok(Date.parse(second!.startedAt) - Date.parse(first!.endedAt) >= backoffMs, 'the retry waited for its backoff');

    // Each submission points at the transcript line that recorded it, right after what the agent said.
    const lines = readTranscript(out.transcript);
    assert.deepEqual(out.agent.submissions.map((s) => s.submission), [1, 2]);
    for (const [s, via] of [[out.agent.submissions[0]!, 'CLI'], [out.agent.submissions[1]!, 'MCP']] as const) {
      const line = lines[s.line - 1]!;
      assert.equal(line.stream, 'launcher');
      assert.equal(line.submission, s.submission);
      const said = lines.slice(0, s.line - 1).filter((l) => l.stream === 'stdout').at(-1);
      assert.equal(said?.text, `submitting via ${via}`);
    }
    assert.ok(lines.every((l, i) => i === 0 || Date.parse(l.t) >= Date.parse(lines[i - 1]!.t)), 'time-stamped in order');
    assert.ok(lines.some((l) => l.stream === 'stderr' && l.text === 'crashing on purpose'));
    const envLine = lines.find((l) => l.text.startsWith('env '))!.text;
    assert.match(envLine, /PF_ALLOWED=yes PF_SECRET=<unset> task file present/, 'only listed variables reach the agent');
    assert.ok(lines.some((l) => l.text === 'task received: with AGENTS.md (' + l.text.split('(')[1]), 'the task text came on stdin');

    const journaled = readEvents(dir).filter((e) => e.type === 'submitted').map((e) => e.submission);
    assert.deepEqual(journaled, out.agent.submissions.map((s) => s.submission), 'the record links the journal\'s submissions');
    const report = JSON.parse(fs.readFileSync(path.join(dir, '.policyforge', 'report.json'), 'utf8')) as AgentRunJson['report'];
    assert.equal(report.agent?.ending, 'budget_spent', 'report.json says how the run ended');
  });

  it('stops an agent at the time limit and finishes the run', () => {
    const r = runAgent(process.env, '--budget', '4', '--agent-cmd', `node -e "console.log('thinking'); setInterval(() => {}, 1000)"`, '--time-limit', '2');
    assert.equal(r.code, 0, r.err);
    const out = r.json();
    assert.equal(out.ending, 'time_limit');
    assert.equal(out.agent.attempts.length, 1);
    assert.equal(out.report.budget.used, 0);
    assert.ok(readTranscript(out.transcript).some((l) => l.text === 'thinking'));
    fs.rmSync(out.workspace, { recursive: true, force: true });
  });

  it('gives up after the retries, saying so', () => {
    const r = runAgent(process.env, '--budget', '4', '--agent-cmd', 'exit 9', '--retries', '2', '--retry-backoff-ms', '10');
    assert.equal(r.code, 0, r.err);
    const out = r.json();
    assert.equal(out.ending, 'retries_exhausted');
    assert.deepEqual(out.agent.attempts.map((a) => a.exitCode), [9, 9, 9]);
    fs.rmSync(out.workspace, { recursive: true, force: true });
  });

  it('refuses an unknown preset and a bad variable name as usage errors', () => {
    assert.equal(runAgent(process.env, '--agent', 'codex', '--agent-cmd', 'x').code, 2);
    assert.equal(runAgent(process.env, '--agent-cmd', 'true', '--agent-env', 'NOT-A-NAME').code, 2);
  });

  it('writes MCP configurations beside the ones a workspace has, and a PATH shim', () => {
    const ws = tmpDir('mcpcfg');
    fs.writeFileSync(path.join(ws, '.mcp.json'), JSON.stringify({ mcpServers: { other: { command: 'x' } } }));
    fs.mkdirSync(path.join(ws, '.codex'));
    fs.writeFileSync(path.join(ws, '.codex', 'config.toml'), 'model = "m"\n\n[mcp_servers.policyforge]\ncommand = "old"\n\n[mcp_servers.other]\ncommand = "y"\n');
    const prepared = prepareAgentWorkspace(ws, 'task', CLI);
    prepareAgentWorkspace(ws, 'task', CLI);
    const mcp = JSON.parse(fs.readFileSync(path.join(ws, '.mcp.json'), 'utf8')) as { mcpServers: Record<string, { args?: string[] }> };
    assert.deepEqual(Object.keys(mcp.mcpServers), ['other', 'policyforge']);
    assert.deepEqual(mcp.mcpServers.policyforge!.args, [CLI, 'mcp', '--dir', ws]);
    const toml = fs.readFileSync(path.join(ws, '.codex', 'config.toml'), 'utf8');
    assert.equal(toml.match(/\[mcp_servers\.policyforge\]/g)?.length, 1, 'our section replaced, not repeated');
    assert.match(toml, /model = "m"/);
    assert.match(toml, /\[mcp_servers\.other\]\ncommand = "y"/);
    assert.ok(fs.existsSync(path.join(ws, '.vscode', 'mcp.json')) && fs.existsSync(path.join(ws, '.gemini', 'settings.json')));
    const shim = spawnSync(path.join(prepared.binDir, 'policyforge'), ['--version'], { encoding: 'utf8' });
    assert.equal(shim.status, 0, shim.stderr);
    const env = agentEnv({ PATH: '/usr/bin', HOME: '/h', SECRET: 's', KEEP: 'k' }, ['KEEP'], { POLICYFORGE_WORKSPACE: ws }, prepared.binDir);
    assert.deepEqual(env, { PATH: `${prepared.binDir}${path.delimiter}/usr/bin`, HOME: '/h', KEEP: 'k', POLICYFORGE_WORKSPACE: ws });
  });
});
