/** The agent's record in report.json: one typed field, added through its schema. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { addAgentToReport, readAgentRecord, writeAgentRecord, type AgentRecord } from '../../../src/agents/agentRecord';
import { parseRunReport } from '../../../src/protocol/documents';
import type { RunReport } from '../../../src/protocol/feedback';
import { cleanupTmp, tmpDir } from '../runner/helpers';

const report: RunReport = {
  envId: 'CartPole-v1',
  completedAt: '2026-01-01T00:00:00.000Z',
  budget: { total: 8, used: 8, remaining: 0 },
  selectionMode: 'paper',
  selected: 1,
  candidates: [],
  heldOut: null,
  validationCurve: [],
  trainCurve: [],
};

const record: AgentRecord = {
  kind: 'lm',
  agent: 'test/scripted',
  startedAt: '2026-01-01T00:00:00.000Z',
  endedAt: '2026-01-01T00:01:00.000Z',
  ending: 'budget_spent',
  spend: { calls: 3, tokensIn: 300, tokensOut: 30, cost: 0.0012 },
  submissions: [{ submission: 1, at: '2026-01-01T00:00:30.000Z', transcript: 'lm/turn-0001.md' }],
};

describe('agent record: the report field', () => {
  after(() => cleanupTmp());
  const workspace = (withReport: boolean): string => {
    const ws = tmpDir('agent-record');
    fs.mkdirSync(path.join(ws, '.policyforge'), { recursive: true });
    if (withReport) fs.writeFileSync(path.join(ws, '.policyforge', 'report.json'), JSON.stringify(report));
    return ws;
  };

  it('adds the record to report.json, where the report schema reads it back typed', () => {
    const ws = workspace(true);
    const added = addAgentToReport(ws, record);
    assert.deepEqual(added?.agent, record);
    const read = parseRunReport(fs.readFileSync(path.join(ws, '.policyforge', 'report.json'), 'utf8'));
    assert.ok(read.ok, read.ok ? '' : read.error);
    assert.equal(read.value.agent?.ending, 'budget_spent');
    assert.equal(read.value.agent?.spend?.tokensIn, 300);
    assert.equal(read.value.selected, 1, 'the rest of the report is unchanged');
  });

  it('returns null before the runner wrote a report, and refuses a record that does not match its schema', () => {
    assert.equal(addAgentToReport(workspace(false), record), null);
    const ws = workspace(true);
    assert.throws(() => addAgentToReport(ws, { ...record, ending: 'gave_up' as AgentRecord['ending'] }), /agent's record does not match its schema: ending/);
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(ws, '.policyforge', 'report.json'), 'utf8')), report, 'report.json is left as it was');
  });

  it('a report whose agent field is malformed fails the report schema, naming the field', () => {
    const r = parseRunReport(JSON.stringify({ ...report, agent: { ...record, spend: { calls: 'three' } } }));
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.error, /agent\.spend\.calls/);
  });

  it('reads agent.json through the same schema', () => {
    const ws = workspace(false);
    writeAgentRecord(ws, record);
    assert.deepEqual(readAgentRecord(ws), record);
    fs.writeFileSync(path.join(ws, '.policyforge', 'agent', 'agent.json'), JSON.stringify({ kind: 'robot' }));
    assert.equal(readAgentRecord(ws), undefined);
  });
});
