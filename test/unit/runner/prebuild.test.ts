import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { RunnerClient } from '../../../src/runner/client';
import type { EpisodeExecutor } from '../../../src/runner/executor';
import type { RunnerHost } from '../../../src/runner/host';
import type { BuildResult } from '../../../src/sandbox/types';
import { cartPolicy, connect, INTERRUPTIBLE_ITERATIONS, makeWorkspace, sharedExecutor, slowPolicy, startHost, useInProcessRunners, waitFor, writePolicy } from './helpers';

interface BuildCall {
  result: BuildResult;
  /** What the run was doing when the build started. */
  duringBatch: boolean;
}

/** The real executor, noting every build the host asks of it. */
function watchedExecutor(calls: BuildCall[], host: () => RunnerHost | undefined): EpisodeExecutor {
  const real = sharedExecutor();
  return {
    build: async (root) => {
      const duringBatch = host()?.run.status().running != null;
      const result = await real.build(root);
      calls.push({ result, duringBatch });
      return result;
    },
    runBatch: (request) => real.runBatch(request),
    close: async () => undefined,
  };
}

/** A host on `dir` whose executor notes every build; waits for the build at start. */
async function startNoted(dir: string): Promise<{ calls: BuildCall[]; host: RunnerHost; client: RunnerClient }> {
  const calls: BuildCall[] = [];
  // The host builds once before startHost returns, when there is no host to ask yet.
  const started: { host?: RunnerHost } = {};
  const host = await startHost(dir, { executor: watchedExecutor(calls, () => started.host) });
  started.host = host;
  const client = await connect(host);
  await waitFor('the build at start', () => calls.length === 1);
  return { calls, host, client };
}

describe('runner: building a saved policy before its submit', function () {
  this.timeout(60_000);
  useInProcessRunners();

  it('builds policy/ at start and after each save, so the submit gets the bundle already built', async () => {
    const dir = makeWorkspace();
    const { calls, host, client } = await startNoted(dir);
    try {
      writePolicy(dir, cartPolicy(0.7));
      await waitFor('the build after the save', () => calls.length === 2);
      const prebuilt = calls[1]!.result;
      assert.ok(prebuilt.ok);
      const s = await client.submit({ cases: '0-1' });
      assert.equal(s.checkpoint, prebuilt.bundle.id, 'the submission ran what was saved');
      assert.equal(calls.length, 3);
      assert.equal(calls[2]!.result, prebuilt, "the submit's build was the one made after the save");
    } finally {
      await client.close();
      await host.close();
    }
  });

  it('never builds beside a running batch: a save during one is built after it', async () => {
    const dir = makeWorkspace();
    writePolicy(dir, slowPolicy(INTERRUPTIBLE_ITERATIONS));
    const { calls, host, client } = await startNoted(dir);
    try {
      const submitted = client.submit({ cases: '0-3' });
      await waitFor('the batch to start', () => host.run.status().running !== null);
      fs.writeFileSync(path.join(dir, 'policy', 'helper.ts'), 'export const GAIN = 2;\n');
      await submitted;
      await waitFor('the build after the save', () => calls.length === 3);
      assert.deepEqual(calls.map((c) => c.duringBatch), [false, false, false]);
    } finally {
      await client.close();
      await host.close();
    }
  });
});
