import * as assert from 'node:assert/strict';
import { literalHistory, type CheckpointSource } from '../../../src/extension/hovers/literalHistory';

const v1 = `// gain 9 in a comment
export class Policy {
  private readonly weights = [0.0, 0.0, 1.0, 0.0];
  private k = 0.5;
  act(obs: Float64Array): number {
    const s = "3 in a string" + \`and \${obs[2] * 10} in a template\`;
    const r = /\\d+2/.test(s);
    let score = 0;
    for (let i = 0; i < 4; i++) score += this.weights[i]! * obs[i]!;
    return score * this.k + -0.1 * obs[3]! > 1e-3 ? 1 : 0;
  }
}
`;
// Structural: a guard at the top of act() adds literals before the others, and a helper method.
const v2 = v1
  .replace('    const s =', "    if (obs[2]! > 0.05) throw new Error('pole leaned right');\n    const s =")
  .replace('  act(', '  private clamp(x: number): number {\n    return Math.max(-2, Math.min(2, x));\n  }\n\n  act(');
// Parametric on top of that.
const v3 = v2.replace('private k = 0.5', 'private k = 0.75').replace('[0.0, 0.0, 1.0, 0.0]', '[0.25, 0.0, 1.0, 0.0]');

function cps(...sources: (string | undefined)[]): CheckpointSource[] {
  return sources.map((source, i) => ({ submission: i + 1, source, mean: 10 * (i + 1), editClass: i === 0 ? 'initial' : 'structural' }));
}

function values(h: Awaited<ReturnType<typeof literalHistory>>): (number | string)[] {
  assert.ok(h, 'a numeric literal under the cursor');
  return h.entries.map((e) => (e.value === null ? e.reason : e.value));
}

describe('extension: numeric literal history (hover)', function () {
  this.timeout(30_000);

  it('identifies the numeric literal under the cursor, a unary minus included, and nothing else', async () => {
    const h = await literalHistory('policy.ts', v1, v1.indexOf('-0.1') + 2, cps(v1));
    assert.equal(h?.literal.text, '-0.1');
    assert.equal(h?.literal.value, -0.1);
    assert.equal(v1.slice(h.literal.start, h.literal.end), '-0.1');
    assert.equal(await literalHistory('policy.ts', v1, v1.indexOf('Policy'), cps(v1)), undefined);
    assert.equal(await literalHistory('policy.ts', v1, v1.indexOf('9 in a comment'), cps(v1)), undefined, 'comments hold no literals');
    assert.equal(await literalHistory('policy.ts', v1, v1.indexOf('3 in a string'), cps(v1)), undefined, 'strings are not numbers');
  });

  it('follows a literal through a structural edit: same value shows its value, not "different shape"', async () => {
    const doc = v3;
    const at = (needle: string, from = 0): number => doc.indexOf(needle, from) + 1;
    assert.deepEqual(values(await literalHistory('policy.ts', doc, at('0.75'), cps(v1, v2, v3))), [0.5, 0.5, 0.75]);
    assert.deepEqual(values(await literalHistory('policy.ts', doc, at('-0.1'), cps(v1, v2, v3))), [-0.1, -0.1, -0.1]);
    assert.deepEqual(values(await literalHistory('policy.ts', doc, at('1e-3'), cps(v1, v2, v3))), [1e-3, 1e-3, 1e-3]);
    assert.deepEqual(values(await literalHistory('policy.ts', doc, at('0.25'), cps(v1, v2, v3))), [0, 0, 0.25], 'a table slot');
    assert.deepEqual(values(await literalHistory('policy.ts', doc, doc.indexOf('i < 4') + 4, cps(v1, v2, v3))), [4, 4, 4], 'the loop bound');
  });

  it('says "not in this checkpoint" for a literal added later, and "file missing" for a file that did not exist', async () => {
    const doc = v3;
    const h = await literalHistory('policy.ts', doc, doc.indexOf('0.05') + 1, cps(v1, v2, undefined, v3));
    assert.deepEqual(values(h), ['not in this checkpoint', 0.05, 'file missing', 0.05]);
    assert.deepEqual(h?.entries.map((e) => [e.submission, e.mean, e.editClass]), [[1, 10, 'initial'], [2, 20, 'structural'], [3, 30, 'structural'], [4, 40, 'structural']]);
  });

  it('orders entries oldest first and follows unsaved edits in the open document', async () => {
    const unsaved = v3.replace('private k = 0.75', 'private k = 0.8');
    const shuffled = cps(v1, v2, v3).reverse();
    const h = await literalHistory('policy.ts', unsaved, unsaved.indexOf('0.8') + 1, shuffled);
    assert.deepEqual(h?.entries.map((e) => e.submission), [1, 2, 3]);
    assert.deepEqual(values(h), [0.5, 0.5, 0.75]);
  });

  it('follows a value in an imported JSON file by its path when entries are added around it', async () => {
    const a = '{ "gains": { "kp": 1.5, "kd": 0.2 } }\n';
    const b = '{ "bias": 0.1, "gains": { "ki": 0.01, "kp": 1.5, "kd": 0.3 } }\n';
    assert.deepEqual(values(await literalHistory('weights.json', b, b.indexOf('0.3') + 1, cps(a, b))), [0.2, 0.3]);
    assert.deepEqual(values(await literalHistory('weights.json', b, b.indexOf('0.01') + 1, cps(a, b))), ['not in this checkpoint', 0.01]);
  });
});
