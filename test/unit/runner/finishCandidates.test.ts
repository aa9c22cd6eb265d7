/**
 * A run that selects among named candidates refuses a finish that names none, and the refusal
 * names the run's own submissions (the best train means, as the last-submit warning does), or
 * says that none has run episodes yet: never made-up numbers an agent could copy.
 */
import assert from 'node:assert/strict';
import { RunClientError } from '../../../src/runner/client';
import { finishCandidatesExample } from '../../../src/stats/reportText';
import { cartPolicy, connect, makeWorkspace, startHost, useInProcessRunners, writePolicy } from './helpers';

/** Every episode throws: scored at CartPole's failure return (0), below any episode that balances a step. */
const THROWING = 'export class Policy { act(): Action { throw new Error("boom"); } }\n';

describe('runner: a candidates-mode finish without candidates', function () {
  this.timeout(120_000);
  useInProcessRunners();

  /** The refusal of `finish()` without candidates: its reason and message. */
  const refusal = async (finish: () => Promise<unknown>): Promise<string> => {
    const e = await finish().then(
      () => assert.fail('finish without candidates went through'),
      (err: unknown) => err,
    );
    assert.ok(e instanceof RunClientError, String(e));
    assert.equal(e.reason, 'malformed_request', e.message);
    return e.message;
  };

  it('names the submissions that exist, and the run ends with those it names', async () => {
    const dir = makeWorkspace({ budget: 16, validationCases: 2, heldOutCases: 2, selectionMode: 'candidates' });
    const host = await startHost(dir);
    const client = await connect(host);
    try {
      const none = await refusal(() => client.finish());
      assert.equal(none, 'this run selects among named candidates: give the submissions to validate, but no submission has run episodes yet: submit first, then name the ones to validate');
      assert.doesNotMatch(none, /\d/);

      writePolicy(dir, cartPolicy(0.5));
      await client.submit({ cases: '0-1' }); // 1
      assert.match(await refusal(() => client.finish()), /for example submission 1, the only one so far: run `policyforge finish --candidates 1`, or call the `finish` tool with `candidates: \[1\]`$/);

      writePolicy(dir, THROWING);
      await client.submit({ cases: '0-1' }); // 2: the worst train mean
      writePolicy(dir, cartPolicy(0.3));
      await client.submit({ cases: '2-3' }); // 3
      writePolicy(dir, cartPolicy(0.1));
      await client.submit({ cases: '4-5' }); // 4
      const message = await refusal(() => client.finish());
      const { history } = await client.status();
      assert.deepEqual(finishCandidatesExample(history).example, [1, 3, 4], 'the throwing submission ranks last');
      assert.equal(
        message,
        'this run selects among named candidates: give the submissions to validate, for example the 3 best train means among submissions 1-4: ' +
          'run `policyforge finish --candidates 1,3,4`, or call the `finish` tool with `candidates: [1, 3, 4]`',
      );
      assert.equal((await client.status()).phase, 'agent', 'the refused finish ended nothing');

      // The numbers it names are ones finish accepts.
      const report = await client.finish([1, 3, 4]);
      assert.equal(report.selectionMode, 'candidates');
      assert.deepEqual(report.candidates.map((c) => c.submission), [1, 3, 4]);
    } finally {
      await client.close();
      await host.close();
    }
  });
});
