/**
 * Following a literal from one version of a module to another (src/analysis/literalMap.ts): the
 * pairing behind literal changes and the editor's literal-history hover.
 */
import * as assert from 'node:assert/strict';
import { literalAtOffset, mapLiterals, moduleFacts, type ModuleFacts } from '../../../src/analysis';

const parent = `export class Policy {
  private readonly weights = [0.0, 0.5, 1.0, 0.25];
  private threshold = 0.05;

  act(observation: Float64Array): number {
    let score = 0;
    for (let i = 0; i < 4; i++) score += this.weights[i]! * observation[i]!;
    return score > this.threshold ? 1 : 0;
  }
}
`;

async function facts(text: string): Promise<ModuleFacts> {
  return moduleFacts('policy.ts', text);
}

/** Parent literal text for the child literal written as `childText` (the first occurrence at or after `from`). */
async function follow(parentSrc: string, childSrc: string, childText: string, from = 0): Promise<string | null> {
  const [a, b] = await Promise.all([facts(parentSrc), facts(childSrc)]);
  const at = literalAtOffset(b, childSrc.indexOf(childText, from));
  assert.ok(at, `a literal at ${childText}`);
  const p = mapLiterals(a, b)[at.index];
  return p === null || p === undefined ? null : a.literals[p]!.text;
}

describe('analysis: literal mapping across edits', function () {
  this.timeout(30_000);

  it('finds the literal under an offset, the minus sign included', async () => {
    const src = 'export const k = -0.5;\nexport const m = 2;\n';
    const f = await facts(src);
    assert.equal(literalAtOffset(f, src.indexOf('-0.5'))?.literal.value, -0.5);
    assert.equal(literalAtOffset(f, src.indexOf('0.5') + 2)?.literal.text, '-0.5');
    assert.equal(literalAtOffset(f, src.indexOf('const')), undefined);
  });

  it('maps by position when only values changed', async () => {
    const child = parent.replace('0.05', '0.1').replace('0.5,', '0.75,');
    assert.equal(await follow(parent, child, '0.75'), '0.5');
    assert.equal(await follow(parent, child, '0.1'), '0.05');
  });

  it('follows literals through a structural edit that changes their count and positions', async () => {
    // A new guard at the top of act() adds literals before every literal of the method.
    const child = parent
      .replace('let score = 0;', "if (Math.abs(observation[2]!) > 0.2) return observation[3]! > 0 ? 1 : 0;\n    let score = 0;")
      .replace('0.5,', '0.6,');
    const [a, b] = await Promise.all([facts(parent), facts(child)]);
    assert.notEqual(a.literals.length, b.literals.length);
    assert.equal(await follow(parent, child, '0.6'), '0.5', 'a table value, value changed');
    assert.equal(await follow(parent, child, '0.25'), '0.25', 'a table value, unchanged');
    assert.equal(await follow(parent, child, '0.05'), '0.05', 'a field after the edit');
    assert.equal(await follow(parent, child, '4', child.indexOf('i < 4')), '4', 'the loop bound after the new guard');
    assert.equal(await follow(parent, child, '0.2', child.indexOf('> 0.2)')), null, 'the new guard has no history');
  });

  it('follows a literal whose neighbourhood changed, by its declaration path and role', async () => {
    // The comparison gains a second operand right after the threshold, breaking the diff anchor.
    const a = 'export class Policy {\n  act(o: Float64Array): number {\n    if (o[2] > 0.05) return 1;\n    return 0;\n  }\n}\n';
    const b = 'export class Policy {\n  act(o: Float64Array): number {\n    if (o[2] > 0.07 && o[3] > -1) return 1;\n    return 0;\n  }\n}\n';
    assert.equal(await follow(a, b, '0.07'), '0.05');
    assert.equal(await follow(a, b, '-1'), null);
  });

  it('follows a table slot whose surroundings were rewritten, and not across declarations', async () => {
    const a = 'export const GAINS = { kp: 1.5, kd: 0.2 };\nexport function f(x: number): number { return x * 3; }\n';
    const b = 'export const GAINS = { kd: 0.3, ki: 0.01, kp: 1.5 };\nexport function f(x: number, y = 0): number { return x * 3 + y; }\n';
    assert.equal(await follow(a, b, '1.5'), '1.5');
    assert.equal(await follow(a, b, '0.3'), '0.2');
    assert.equal(await follow(a, b, '0.01'), null);
  });

  it('does not pair literals of different kinds or a removed constant with an unrelated new one', async () => {
    const a = 'export class Policy {\n  act(o: number[]): number {\n    for (let i = 0; i < 8; i++) o[i] = 0;\n    return 1;\n  }\n}\n';
    const b = 'export class Policy {\n  act(o: number[]): number {\n    const best = o.indexOf(Math.max(...o));\n    return best > 2 ? 1 : 0;\n  }\n}\n';
    assert.equal(await follow(a, b, '2'), null, 'a new comparison is not the old loop bound');
  });
});
