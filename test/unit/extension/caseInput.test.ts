import * as assert from 'node:assert/strict';
import { formatCaseRanges, parseCaseRanges } from '../../../src/protocol/caseRanges';
import { parseSubmitInput } from '../../../src/extension/submit/caseInput';

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
