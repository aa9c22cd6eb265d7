/**
 * The autotune baseline of a finished run: autotune with the run's budget on the run's cases. It
 * must score on the very held-out cases the selected policy was scored on (its run shares the
 * secret: the starter policy scores exactly the same there), spend exactly the run's budget, land
 * in report.json as `baselines.autotune`, survive a report rebuilt from the journal, and be
 * reused rather than run again.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { addAutotuneBaseline } from '../../../src/agents/autotuneBaseline';
import { createRegistry } from '../../../src/envs';
import type { RunReport } from '../../../src/protocol/feedback';
import { formatReport } from '../../../src/stats/reportText';
import { cartPolicy, connect, makeWorkspace, readEvents, sharedExecutor, startHost, useInProcessRunners, writePolicy } from '../runner/helpers';

describe('autotune baseline (finish --baseline autotune)', function () {
  this.timeout(240_000);
  useInProcessRunners();

  it('scores autotune with the same budget on the same held-out cases and records it in report.json', async () => {
    const ws = makeWorkspace({ budget: 16, validationCases: 4, heldOutCases: 4 });
    writePolicy(ws, cartPolicy(0.2));
    let host = await startHost(ws, { assessStarter: true });
    let client = await connect(host);
    await client.submit({ cases: '0-7' });
    await client.submit({ cases: '8-15' });
    const report = await client.finish();
    await client.close();
    await host.close();
    assert.ok(report.starterHeldOut, 'the run assessed its starter');

    const registry = createRegistry();
    const first = await addAutotuneBaseline(ws, { registry, executor: sharedExecutor() });
    assert.equal(first.reused, false);
    const rec = first.record;
    assert.deepEqual(rec.budget, { used: 16, total: 16 }, 'the same budget, all of it spent');
    assert.deepEqual(rec.starterHeldOut, report.starterHeldOut, 'the same held-out cases: the starter scores exactly as in the run');
    assert.equal(rec.heldOut?.count, 4);
    const created = readEvents(ws).find((e) => e.type === 'created') as { secretFingerprint?: string } | undefined;
    assert.equal(rec.secretFingerprint, created?.secretFingerprint);

    const onDisk = JSON.parse(fs.readFileSync(path.join(ws, '.policyforge', 'report.json'), 'utf8')) as RunReport;
    assert.deepEqual(onDisk.baselines?.['autotune'], { heldOut: rec.heldOut, budget: rec.budget, selected: rec.selected });
    assert.ok(onDisk.baselines?.['uniform-random'], 'beside the uniform random policy');
    const text = formatReport(onDisk, []);
    assert.match(text, /\n {2}autotune held-out .*, 16\/16 episodes/);
    assert.match(text, /\n {2}uniform-random held-out /);

    // A report rebuilt from the journal keeps it; a second request reuses the record.
    fs.rmSync(path.join(ws, '.policyforge', 'report.json'));
    host = await startHost(ws, { assessStarter: true });
    client = await connect(host);
    const rebuilt = await client.finish();
    await client.close();
    await host.close();
    assert.deepEqual(rebuilt.baselines?.['autotune']?.heldOut, rec.heldOut);
    const again = await addAutotuneBaseline(ws, { registry, executor: sharedExecutor() });
    assert.equal(again.reused, true);
    assert.deepEqual(again.report.baselines?.['autotune']?.heldOut, rec.heldOut);
  });

  it('refuses a run that has not finished', async () => {
    const ws = makeWorkspace({ budget: 8 });
    await assert.rejects(addAutotuneBaseline(ws, { registry: createRegistry(), executor: sharedExecutor() }), /no report yet: finish the run/);
  });
});
