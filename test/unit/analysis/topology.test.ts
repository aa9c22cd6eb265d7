/**
 * Topology rules on small inline edits: what is a literal, what is structure, and what is
 * only formatting. Each case is a one-file policy edited one way.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { analyzeEdit } from '../../../src/analysis';
import type { EditAnalysis } from '../../../src/protocol/analysis';
import { removeDir, tempDir, writeTree } from './helpers';

let root: string;
let n = 0;

async function edit(parent: string, child: string): Promise<EditAnalysis> {
  const dir = path.join(root, String(++n));
  writeTree(dir, { 'parent/policy.ts': parent, 'child/policy.ts': child });
  const r = await analyzeEdit(path.join(dir, 'parent'), path.join(dir, 'child'));
  if (!r.ok) throw new Error(r.error);
  return r.analysis;
}

const wrap = (body: string): string => `export class Policy {\n  act(o: number[]): number {\n${body}\n  }\n}\n`;

describe('analysis: topology rules', () => {
  before(() => {
    root = tempDir('topology');
  });
  after(() => removeDir(root));

  const cosmetic: [string, string, string][] = [
    ['redundant parentheses', 'return (o[0]! + 1);', 'return o[0]! + 1;'],
    ['semicolons left to ASI', 'const a = 1;\nreturn a;', 'const a = 1\nreturn a'],
    ['the same number written differently', 'return 1.0 + 0x10 + 1_000;', 'return 1 + 16 + 1000;'],
    ['quote style', "return o.indexOf('a' as never);", 'return o.indexOf("a" as never);'],
    ['a template without substitutions for a string', "return 'left'.length;", 'return `left`.length;'],
    ['a type assertion and a non-null assertion', 'return o[0] as number;', 'return o[0]!;'],
    ['a literal type in an annotation', "const m: 'a' | 'b' = 'a';\nreturn m.length;", "const m: 'a' | 'b' | 'c' = 'a';\nreturn m.length;"],
  ];
  for (const [what, a, b] of cosmetic) {
    it(`cosmetic: ${what}`, async () => {
      const r = await edit(wrap(a), wrap(b));
      assert.equal(r.class, 'parametric');
      assert.equal(r.cosmetic, true, r.details.join('; '));
    });
  }

  it('cosmetic: an interface and a type alias added', async () => {
    const r = await edit(wrap('return 0;'), `interface Memory { last: number }\ntype Obs = number[];\n${wrap('return 0;')}`);
    assert.equal(r.cosmetic, true);
  });

  const parametric: [string, string, string, unknown, unknown][] = [
    ['a number', 'return o[0]! * 0.5;', 'return o[0]! * 0.75;', 0.5, 0.75],
    ['a sign (unary minus folds into the literal)', 'return o[0]! * 0.5;', 'return o[0]! * -0.5;', 0.5, -0.5],
    ['a number inside an array literal', 'return [1, 2, 3][0]!;', 'return [1, 5, 3][0]!;', 2, 5],
    ['a number inside an object literal', 'return { k: 4 }.k;', 'return { k: 6 }.k;', 4, 6],
    ['a string', "return o.indexOf('up' as never);", "return o.indexOf('down' as never);", 'up', 'down'],
    ['a boolean', 'return true ? 1 : 0;', 'return false ? 1 : 0;', true, false],
    ['the text of a template', 'return `a${o[0]}`.length;', 'return `b${o[0]}`.length;', '`a${', '`b${'],
  ];
  for (const [what, a, b, from, to] of parametric) {
    it(`parametric: ${what}`, async () => {
      const r = await edit(wrap(a), wrap(b));
      assert.equal(r.class, 'parametric', r.details.join('; '));
      assert.equal(r.literalChanges.length, 1);
      const c = r.literalChanges[0]!;
      if (typeof from === 'string' && from.startsWith('`')) assert.deepEqual([c.oldText, c.newText], [from, to]);
      else assert.deepEqual([c.old, c.new], [from, to]);
      assert.equal(c.enclosing, 'Policy.act');
      assert.equal(c.line, 3);
    });
  }

  const structural: [string, string, string][] = [
    ['an operator', 'return o[0]! - 5;', 'return o[0]! + 5;'],
    ['a negation of a variable', 'const a = o[0]!;\nreturn -a;', 'const a = o[0]!;\nreturn a;'],
    ['statement order', 'let a = 1;\na = a * 2;\na = a + 1;\nreturn a;', 'let a = 1;\na = a + 1;\na = a * 2;\nreturn a;'],
    ['a property name written as a string', "return { 'kp': 1 }.kp;", "return { 'kd': 1 }.kp;"],
    ['a literal becoming a variable', 'const g = 2;\nreturn o[0]! * 2;', 'const g = 2;\nreturn o[0]! * g;'],
    ['let to const', 'let a = 1;\nreturn a;', 'const a = 1;\nreturn a;'],
    ['a number becoming a string', 'return [1][0]!;', "return ['1'][0]!.length;"],
  ];
  for (const [what, a, b] of structural) {
    it(`structural: ${what}`, async () => {
      const r = await edit(wrap(a), wrap(b));
      assert.equal(r.class, 'structural', r.details.join('; '));
    });
  }

  it('an if/else chain: else-if does not deepen nesting, each branch is one decision', async () => {
    const r = await edit(wrap('return 0;'), wrap('if (o[0]! > 1) return 1;\nelse if (o[0]! > 0) return 2;\nelse if (o[0]! > -1) return 3;\nreturn 0;'));
    assert.equal(r.childMetrics.maxNestingDepth, 1);
    assert.equal(r.childMetrics.branches, 3);
    assert.equal(r.childMetrics.cyclomaticMax, 4);
    assert.deepEqual(r.details.slice(0, 1), ['3 ifs added in Policy.act']);
  });

  it('renaming a local named like a member it reads is a rename; renaming a field renames its accesses too', async () => {
    const local = await edit(wrap('const length = o.length;\nreturn length * 2;'), wrap('const n = o.length;\nreturn n * 2;'));
    assert.deepEqual(local.structural?.renames, [{ file: 'policy.ts', from: 'length', to: 'n', declares: 'variable' }]);
    const field = 'export class Policy {\n  private speed = 1;\n  act(): number {\n    this.speed += 1;\n    return this.speed;\n  }\n}\n';
    const r = await edit(field, field.replace(/speed/g, 'velocity'));
    assert.equal(r.structural?.renameOnly, true);
    assert.deepEqual(r.structural?.renames, [{ file: 'policy.ts', from: 'speed', to: 'velocity', declares: 'field' }]);
    assert.deepEqual(r.details, ['rename only: field speed → velocity (policy.ts)']);
  });

  it('a rename that collides with an existing name is not reported as a rename', async () => {
    const r = await edit(wrap('const a = o[0]!;\nconst b = o[1]!;\nreturn a + b;'), wrap('const a = o[0]!;\nconst b = o[1]!;\nreturn b + b;'));
    assert.equal(r.class, 'structural');
    assert.equal(r.structural!.renameOnly, false);
  });

  it('literals in a table that initialises a field or constant are named by their path into it', async () => {
    const table = (k: string, w: string) => `const GAINS = { kp: ${k}, kd: [1, 2] };\nexport class Policy {\n  private readonly w = [[0, 1], [${w}, 3]];\n  act(): number {\n    return [4, 5][0]! + GAINS.kp;\n  }\n}\n`;
    const r = await edit(table('0.5', '2'), table('0.6', '-2'));
    assert.deepEqual(r.literalChanges.map((c) => c.enclosing), ['GAINS.kp', 'Policy.w[1][0]']);
    const inline = await edit(table('0.5', '2'), table('0.5', '2').replace('[4, 5]', '[4, 6]'));
    assert.deepEqual(inline.literalChanges.map((c) => c.enclosing), ['Policy.act']);
  });

  it('reprinting every fixture policy with the compiler (comments dropped, layout normalised) is cosmetic', async () => {
    const { ts } = await import('ts-morph');
    const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });
    const fixtures = path.join(__dirname, '../../fixtures/analysis');
    let checked = 0;
    for (const pair of fs.readdirSync(fixtures)) {
      if (pair === 'mg-syntax-error') continue;
      for (const side of ['parent', 'child']) {
        const src = path.join(fixtures, pair, side);
        const out = path.join(root, 'reprint', pair, side);
        fs.cpSync(src, out, { recursive: true });
        for (const f of fs.readdirSync(out, { recursive: true }) as string[]) {
          if (!f.endsWith('.ts') || f.endsWith('.d.ts')) continue;
          const file = path.join(out, f);
          const sf = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
          fs.writeFileSync(file, printer.printFile(sf).replace(/ {4}/g, '\t'));
        }
        const r = await analyzeEdit(src, out);
        assert.ok(r.ok);
        assert.ok(r.analysis.class === 'identical' || r.analysis.cosmetic, `${pair}/${side}: ${r.analysis.class} ${r.analysis.details.join('; ')}`);
        checked++;
      }
    }
    assert.ok(checked >= 100);
  });

  it('a retuned literal next to a structural change is still listed', async () => {
    const r = await edit(wrap('const k = 0.5;\nreturn o[0]! * k;'), wrap('const k = 0.8;\nif (o[1]! > 0) return 1;\nreturn o[0]! * k;'));
    assert.equal(r.class, 'structural');
    assert.deepEqual(r.literalChanges.map((c) => [c.old, c.new, c.line, c.parentLine]), [[0.5, 0.8, 3, 3]]);
  });
});
