/**
 * While a run validates and assesses, `report` and `status` say what is being done instead of a
 * bare "not complete" (#24: a 26-minute validation with no output). The finish runs in the
 * background on a policy slow enough to be asked about; the test polls until it ends and needs
 * only one answer given during it, so its timing does not decide the outcome.
 */
import assert from 'node:assert/strict';
import { processAlive, readRunnerFile } from '../../../src/runner/runnerFile';
import { cleanupTmp, makeWorkspace, slowPolicy, useTempDataDir, writePolicy } from '../runner/helpers';
import { pf, pfAsync } from './cliHelpers';

describe('cli: report and status during validation and assessment', function () {
  this.timeout(300_000);
  let ws = '';
  before(() => useTempDataDir());
  after(() => {
    const f = ws ? readRunnerFile(ws) : undefined;
    if (f && processAlive(f.pid)) process.kill(f.pid, 'SIGTERM');
    cleanupTmp();
  });

  it('report and status name the phase and its counts until the report exists', async () => {
    ws = makeWorkspace({ budget: 4, validationCases: 4, heldOutCases: 2 });
    writePolicy(ws, slowPolicy(150_000));
    assert.equal(pf(ws, 'submit', '--cases', '0').code, 0);
    let done = false;
    const finishing = pfAsync(ws, 'finish').then((r) => {
      done = true;
      return r;
    });
    const reports: string[] = [];
    const statuses: string[] = [];
    while (!done) {
      const r = pf(ws, 'report');
      if (done) break;
      if (r.code === 1) reports.push(r.err);
      const s = pf(ws, 'status');
      if (!done && s.code === 0) statuses.push(s.out);
      await new Promise((res) => setTimeout(res, 200));
    }
    const finish = await finishing;
    assert.equal(finish.code, 0, finish.err);
    const during = /the run is not complete yet: (?:validating the candidates on the hidden validation cases(?:: \d+\/1 candidates, \d+\/4 episodes)?|assessing the (?:selected submission|(?:starter|uniform-random) policy \(a baseline\)) on the held-out cases: \d+\/2 episodes); `policyforge finish` waits for it/;
    assert.ok(reports.some((r) => during.test(r)), `report during the finish: ${JSON.stringify(reports)}`);
    assert.ok(statuses.some((s) => /^(?:validating the candidates|assessing the)/m.test(s)), `status during the finish: ${JSON.stringify(statuses)}`);
    assert.equal(pf(ws, 'report').code, 0, 'and the report once it exists');
  });
});
