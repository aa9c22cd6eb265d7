/**
 * The LM loop in process, as the editor runs it (a ChatModel other than HTTP, a cancel button):
 * cancellation and the time limit end a call in flight cleanly, and FINISH ends the run.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readAgentRecord } from '../../../src/agents/agentRecord';
import { Ledger } from '../../../src/agents/lm/ledger';
import { runLmAgent } from '../../../src/agents/lm/loop';
import type { ChatModel, ModelRequest } from '../../../src/agents/lm/model';
import { agentsMd } from '../../../src/agents/agentsMd';
import { createRegistry } from '../../../src/envs';
import { initWorkspace } from '../../../src/runner/workspace';
import { connect, sharedExecutor, startHost, tmpDir, useInProcessRunners } from '../runner/helpers';

/** A model that answers from a script, or hangs until its call is aborted once the script is done. */
function scriptedModel(replies: string[]): ChatModel & { calls: number } {
  const model = {
    id: 'test/scripted',
    calls: 0,
    complete(req: ModelRequest) {
      model.calls++;
      const text = replies.shift();
      if (text !== undefined) return Promise.resolve({ text, tokensIn: 100, tokensOut: 10 });
      return new Promise<never>((_, reject) => req.signal.addEventListener('abort', () => reject(new Error('aborted'))));
    },
  };
  return model;
}

async function withRun<T>(fn: (ws: string, client: Awaited<ReturnType<typeof connect>>) => Promise<T>): Promise<T> {
  const ws = tmpDir('lm-loop');
  const init = initWorkspace(ws, { envId: 'CartPole-v1', budget: 8, validationCases: 4, heldOutCases: 4 }, createRegistry(), { extraFiles: (def, config) => ({ 'AGENTS.md': agentsMd(def, config) }) });
  if (!init.ok) throw new Error(init.error);
  const host = await startHost(ws, { executor: sharedExecutor() });
  const client = await connect(host);
  try {
    return await fn(ws, client);
  } finally {
    await client.close();
    await host.close();
  }
}

describe('LM agent loop (in process)', function () {
  this.timeout(60_000);
  useInProcessRunners();

  it('a cancel during a model call ends the loop as cancelled, with the spend so far', async () => {
    await withRun(async (ws, client) => {
      const controller = new AbortController();
      const model = scriptedModel(['no edit here']);
      const spends: number[] = [];
      const done = runLmAgent({ client, workspace: ws, model, ledger: new Ledger({ inPerMTok: 1, outPerMTok: 1 }, {}), signal: controller.signal, onSpend: (s) => spends.push(s.calls) });
      while (model.calls < 2) await new Promise((r) => setTimeout(r, 10));
      controller.abort();
      const r = await done;
      assert.equal(r.ending, 'cancelled');
      assert.equal(r.record.spend?.calls, 1, 'the hung call is not counted');
      assert.deepEqual(spends.slice(0, 1), [1], 'spend is reported after each call');
      assert.equal(readAgentRecord(ws)?.ending, 'cancelled');
      assert.equal((await client.status()).budget.used, 0);
    });
  });

  it('the time limit ends a call in flight', async () => {
    await withRun(async (ws, client) => {
      const r = await runLmAgent({ client, workspace: ws, model: scriptedModel([]), ledger: new Ledger({ inPerMTok: 0, outPerMTok: 0 }, { timeLimitMs: 300 }) });
      assert.equal(r.ending, 'time_limit');
    });
  });

  it('FINISH with an edit submits it, then ends the run', async () => {
    await withRun(async (ws, client) => {
      const edit = 'EDIT policy/policy.ts\n<<<<<<< SEARCH\nexport class Policy {\n=======\n// tuned by the model\nexport class Policy {\n>>>>>>> REPLACE\nSUBMIT episodes 2\nFINISH\n';
      const r = await runLmAgent({ client, workspace: ws, model: scriptedModel([edit]), ledger: new Ledger({ inPerMTok: 0, outPerMTok: 0 }, {}) });
      assert.equal(r.ending, 'agent_finished');
      assert.deepEqual(r.record.submissions.map((s) => s.submission), [1]);
      assert.match(fs.readFileSync(path.join(ws, 'policy', 'policy.ts'), 'utf8'), /^\/\/ tuned by the model/m);
      const status = await client.status();
      assert.equal(status.budget.used, 2);
      assert.equal(status.phase, 'complete', 'FINISH finished the run');
    });
  });
});
