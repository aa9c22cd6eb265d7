import assert from 'node:assert/strict';
import { lastBudgetQuestion } from '../../../src/extension/submit/lastBudgetQuestion';
import { lastBudgetWarning, requestedEpisodes } from '../../../src/stats/reportText';

describe('VS Code Submit: the question before the last of the budget', () => {
  const history = [2, 3, 5, 6].map((submission) => ({ submission, mean: submission === 3 ? 10 : 20 + submission, count: 8, okCount: 8 }));
  const budget = (used: number, total: number) => ({ budget: { used, total, remaining: total - used }, history });

  it('asks before a submit of exactly the episodes left, by count or by cases', () => {
    const byCount = lastBudgetQuestion({ episodes: 8 }, budget(40, 48));
    assert.ok(byCount);
    assert.equal(byCount.message, 'Spend the last of the budget and end the run?');
    assert.match(byCount.detail, /^This submit spends the last 8 episodes of the budget \(40\/48 used so far\), so the run ends with it/);
    assert.match(byCount.detail, /policyforge finish --candidates 2,5,6` instead of this submit \(the 3 best train means among submissions 2-3,5-6;/);
    assert.equal(byCount.declined, 'not submitted, nothing was charged: to end the run with the candidates you choose, run `policyforge finish --candidates 2,5,6` (the 3 best train means among submissions 2-3,5-6)');
    const byCases = lastBudgetQuestion({ cases: '0-5,9,9' }, budget(40, 48));
    assert.ok(byCases, 'a case list with a repeat counts each episode');
    assert.match(byCases.detail, /the last 8 episodes/);
  });

  it('does not ask when budget is left after the submit, or the case list does not parse', () => {
    assert.equal(lastBudgetQuestion({ episodes: 7 }, budget(40, 48)), null);
    assert.equal(lastBudgetQuestion({ cases: '0-3' }, budget(0, 48)), null);
    assert.equal(lastBudgetQuestion({ cases: 'abc' }, budget(47, 48)), null);
    assert.equal(lastBudgetQuestion({ episodes: 1 }, budget(48, 48)), null, 'nothing left: the runner refuses the submit');
  });

  it('asks exactly when the CLI, MCP and LM tool warn (one rule)', () => {
    for (const used of [0, 20, 47, 48]) {
      for (const episodes of [1, 8, 28, 48]) {
        const b = budget(used, 48);
        assert.equal(lastBudgetQuestion({ episodes }, b) !== null, lastBudgetWarning(requestedEpisodes({ episodes }), b, 'cli') !== null, `${episodes} of ${b.budget.remaining} left`);
      }
    }
  });
});
