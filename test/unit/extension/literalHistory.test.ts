import * as assert from 'node:assert/strict';
import { literalAt, literalHistory, scanNumericLiterals } from '../../../src/extension/hovers/literalHistory';

const v1 = `// gain 9 in a comment
export class Policy {
  private k = 0.5;
  act(obs: Float64Array): number {
    const s = "3 in a string" + \`and \${obs[2] * 10} in a template\`;
    const r = /\\d+2/.test(s);
    return obs[2] * this.k + -0.1 * obs[3] > 1e-3 ? 1 : 0;
  }
}
`;

describe('extension: numeric literal history', () => {
  it('finds numeric literals outside comments, strings and regexes, folding a unary minus', () => {
    const lits = scanNumericLiterals(v1).map((l) => l.value);
    assert.deepEqual(lits, [0.5, 2, 10, 2, -0.1, 3, 1e-3, 1, 0]);
  });
  it('does not fold binary minus', () => {
    assert.deepEqual(scanNumericLiterals('const a = b - 2; const c = x[1] - 3; f(-4)').map((l) => l.value), [2, 1, 3, -4]);
  });
  it('identifies the literal under the cursor', () => {
    const at = literalAt(v1, v1.indexOf('0.5') + 1);
    assert.ok(at);
    assert.equal(at.literal.value, 0.5);
    assert.equal(at.ordinal, 0);
    assert.equal(literalAt(v1, v1.indexOf('Policy')), undefined);
  });
  it('follows the literal across parametric edits and refuses to guess across structural ones', () => {
    const v2 = v1.replace('0.5', '0.75');
    const v3 = v1.replace('0.5', '0.75').replace('return', 'if (obs[0] > 2) return 1;\n    return');
    const at = literalAt(v2, v2.indexOf('0.75'));
    assert.ok(at);
    const h = literalHistory(at.ordinal, at.count, [
      { submission: 2, source: v2, mean: 40, editClass: 'parametric' },
      { submission: 1, source: v1, mean: 20, editClass: 'initial' },
      { submission: 3, source: v3, mean: 60, editClass: 'structural' },
      { submission: 4, source: undefined, mean: 0 },
    ]);
    assert.deepEqual(h.map((e) => [e.submission, e.value]), [[1, 0.5], [2, 0.75], [3, null], [4, null]]);
    assert.equal(h[2]?.value === null && h[2].reason, 'different shape');
    assert.equal(h[3]?.value === null && h[3].reason, 'file missing');
  });
});
