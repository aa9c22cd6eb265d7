/** Checkpoint metrics and edit size on policies whose numbers are counted by hand below. */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { analyzeEdit, computeMetrics, sizeBin } from '../../../src/analysis';
import { removeDir, tempDir, writeTree } from './helpers';

const POLICY = `/**
 * Hand-counted policy.
 */
export class Policy {
  private readonly k = 2;
  private last = 0;

  constructor(private readonly ctx: PolicyContext) {}

  // act: for-of, if &&, else-if, ternary, one arrow
  act(o: Observation): Action {
    let s = 0;
    for (const x of o) {
      if (x > 0 && s < 10) {
        s += x;
      } else if (x < -1) {
        s -= 1;
      }
    }
    this.seen = s > 3 ? 1 : 0;
    return [1, 2].map((v) => v * s)[0]!;
  }
}

function helper(a: number): number {
  switch (a) {
    case 1:
      return 2;
    case 2:
      return 3;
    default:
      return 0;
  }
}
`;
const WEIGHTS = '{\n  "w": [0.5, -1, true, "x"]\n}\n';

describe('analysis: metrics and edit size', () => {
  let root: string;
  before(() => {
    root = tempDir('metrics');
    writeTree(root, { 'a/policy.ts': `import w from './w.json';\n${POLICY}`, 'a/w.json': WEIGHTS, 'a/unused.ts': 'export function f() { if (1) {} }\n' });
  });
  after(() => removeDir(root));

  it('counts what a reader would count', async () => {
    const r = await computeMetrics(path.join(root, 'a'));
    assert.ok(r.ok, !r.ok ? r.error : '');
    const { contentHash, ...m } = r.metrics;
    assert.match(contentHash, /^[0-9a-f]{64}$/);
    assert.deepEqual(m, {
      files: 2,
      // 35 policy lines (import included) minus the 3-line doc comment, 3 blank lines and 1 comment line; + 3 JSON lines
      sourceLines: 28 + 3,
      totalLines: 35 + 3,
      // constructor, act, the arrow, helper
      functions: 4,
      classes: 1,
      // 2 ifs, 1 ternary, 2 cases
      branches: 5,
      loops: 1,
      // constructor 1 + act (1 + for-of + if + && + else-if + ternary = 6) + arrow 1 + helper (1 + 2 cases = 3)
      cyclomaticTotal: 11,
      cyclomaticMax: 6,
      // for-of > if (else-if stays at the if's depth)
      maxNestingDepth: 2,
      // k, last, ctx (a parameter property), seen (assigned through this)
      stateFields: 4,
      // policy: 2 0 0 0 10 -1 1 3 1 0 1 2 0 | helper: 1 2 2 3 0 | JSON: 0.5 -1 true "x"
      literals: 13 + 5 + 4,
    });
  });

  it('edit size: lines added/removed across files (added modules count whole), binned on max(added, removed)', async () => {
    writeTree(root, {
      'b/policy.ts': `import w from './w.json';\nimport { g } from './g';\n${POLICY.replace('private readonly k = 2;', 'private readonly k = 3;')}`,
      'b/w.json': WEIGHTS,
      'b/g.ts': 'export const g = 1;\nexport const h = 2;\n',
    });
    const r = await analyzeEdit(path.join(root, 'a'), path.join(root, 'b'));
    assert.ok(r.ok);
    assert.deepEqual(r.analysis.size, {
      linesAdded: 4,
      linesRemoved: 1,
      linesChanged: 4,
      bin: 'small',
      files: [
        { file: 'g.ts', added: 2, removed: 0 },
        { file: 'policy.ts', added: 2, removed: 1 },
      ],
    });
  });

  it('size bins: none 0, small ≤ 5, medium ≤ 30, large above', () => {
    assert.deepEqual([0, 1, 5, 6, 30, 31, 500].map(sizeBin), ['none', 'small', 'small', 'medium', 'medium', 'large', 'large']);
  });
});
