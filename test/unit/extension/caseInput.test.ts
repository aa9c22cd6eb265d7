import * as assert from 'node:assert/strict';
import { formatCaseRanges, parseCaseRanges } from '../../../src/protocol/caseRanges';
import { parseSubmitInput } from '../../../src/extension/submit/caseInput';
import { resubmitQuestion } from '../../../src/extension/commands/resubmitPrompt';

const limits = { poolSize: 128, remaining: 20, minEpisodes: 1, maxEpisodes: 16 };

describe('extension: Submit… input', () => {
  it('accepts a count as episodes on new cases', () => {
    assert.deepEqual(parseSubmitInput(' 8 ', limits), { ok: true, request: { episodes: 8 }, count: 8 });
  });
  it('accepts case ranges and lists the cases they charge, repeats included', () => {
    const r = parseSubmitInput('0-3, 7,7', limits);
    assert.deepEqual(r, { ok: true, request: { cases: '0-3,7,7' }, count: 6, cases: [0, 1, 2, 3, 7, 7] });
  });
  it('names what is wrong while typing', () => {
    const msg = (t: string): string => {
      const r = parseSubmitInput(t, limits);
      assert.equal(r.ok, false);
      return r.ok ? '' : r.message;
    };
    assert.match(msg(''), /number of episodes/);
    assert.match(msg('0'), /at least one/);
    assert.match(msg('0-'), /"0-" is not a case index/);
    assert.match(msg('5-2'), /runs backwards/);
    assert.match(msg('120-130'), /case 130 is outside the pool 0-127/);
    assert.match(msg('17'), /At most 16/);
    assert.match(msg('0-15,16-19,20'), /At most 16/);
    assert.match(msg('1,,2'), /empty item/);
  });
  it('refuses more episodes than the budget has left', () => {
    const r = parseSubmitInput('12', { ...limits, remaining: 10 });
    assert.deepEqual(r, { ok: false, message: '12 episodes exceed the budget left (10)' });
  });
  it('round-trips case lists through compact ranges', () => {
    const cases = [0, 1, 2, 5, 3, 9, 10];
    assert.equal(formatCaseRanges(cases), '0-2,5,3,9-10');
    const back = parseCaseRanges(formatCaseRanges(cases), 128);
    assert.deepEqual(back, { ok: true, cases });
  });
});

describe('extension: Resubmit Same Cases question', () => {
  it('names the submission, its cases and what it charges before anything runs', () => {
    const q = resubmitQuestion(3, [0, 1, 2, 3, 7, 7], limits);
    assert.ok(q.ok);
    assert.deepEqual(q.request, { cases: '0-3,7,7' });
    assert.equal(q.message, 'Resubmit the cases of #3?');
    assert.equal(q.detail, 'Runs the current policy/ on cases 0-3,7,7 again. This charges 6 episodes of budget: 20 left now, 14 after.');
    assert.equal(q.action, 'Resubmit 6 episodes');
  });
  it('says so instead of asking when the cases no longer fit the budget or the per-submit limit', () => {
    const over = resubmitQuestion(2, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], { ...limits, remaining: 10, maxEpisodes: 64 });
    assert.equal(over.ok, false);
    assert.match(over.ok ? '' : over.message, /^cannot resubmit the cases of #2: .*10/);
    const tooMany = resubmitQuestion(2, Array.from({ length: 17 }, (_, i) => i), { ...limits, remaining: 100 });
    assert.match(tooMany.ok ? '' : tooMany.message, /At most 16/);
  });
});
