import * as assert from 'node:assert/strict';
import { cartPoleStarter } from '../../../src/envs/classic/starters';
import { policyLensLine } from '../../../src/extension/codelens/lensAnchor';

describe('extension: CodeLens anchor', () => {
  it('puts the lenses on class Policy only, not again on act()', () => {
    const lines = cartPoleStarter.split('\n');
    assert.equal(policyLensLine(lines, true), lines.findIndex((l) => l.startsWith('export class Policy')));
    assert.ok(lines.some((l) => /^\s+act\(/.test(l)), 'the starter has an act method that no longer gets its own lenses');
  });
  it('falls back to act() in policy.ts when the class is declared another way, and shows nothing in helpers', () => {
    const lines = ['const Impl = class {', '  act(o: number[]) {', '    return 0;', '  }', '};', 'export { Impl as Policy };'];
    assert.equal(policyLensLine(lines, true), 1);
    assert.equal(policyLensLine(lines, false), undefined);
    assert.equal(policyLensLine(['export default class Policy {'], false), 0);
  });
});
