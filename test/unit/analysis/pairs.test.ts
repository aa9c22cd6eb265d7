/**
 * The labelled edit-pair library (test/fixtures/analysis/<pair>/{parent,child}): CartPole-,
 * MountainCar- and MiniGrid-style policies. Every pair asserts its class, size bin and the exact
 * detail lines an agent reads in its feedback; the pairs that stand for a kind of edit the
 * paper cares about also assert the structured result (literal changes, units, state, renames).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { analyzeEdit } from '../../../src/analysis';
import type { EditAnalysis, EditSizeBin } from '../../../src/protocol/analysis';

const FIXTURES = path.join(__dirname, '../../fixtures/analysis');

interface Expectation {
  class: EditAnalysis['class'];
  cosmetic?: true;
  size: EditSizeBin;
  details: string[];
}

const expectations: Record<string, Expectation> = {
  'cp-boolean-flag': {
    class: 'parametric',
    size: 'small',
    details: [
      'Policy.useVelocity: true → false (policy.ts:11)',
    ],
  },
  'cp-call-target-changed': {
    class: 'structural',
    size: 'small',
    details: [
      'method Policy.act modified (policy.ts)',
      'call added: Math.sign in Policy.act',
      'call removed: Math.abs in Policy.act',
    ],
  },
  'cp-comment-only': {
    class: 'parametric',
    cosmetic: true,
    size: 'small',
    details: [
      'no literal or topology change (comments, formatting or types only)',
    ],
  },
  'cp-helper-class': {
    class: 'structural',
    size: 'medium',
    details: [
      'class Smoother added (policy.ts): methods constructor, update; state value, alpha',
      'state field Policy.smoother added',
      'method Policy.act modified (policy.ts)',
      'call added: this.smoother.update in Policy.act',
    ],
  },
  'cp-helper-function': {
    class: 'structural',
    size: 'small',
    details: [
      'function clamp added (policy.ts)',
      'method Policy.act modified (policy.ts)',
      'call added: clamp in Policy.act',
    ],
  },
  'cp-identical': {
    class: 'identical',
    size: 'none',
    details: [
      'no change (same content hash)',
    ],
  },
  'cp-if-around-constant': {
    class: 'structural',
    size: 'small',
    details: [
      'if added in Policy.act',
      'method Policy.act modified (policy.ts)',
    ],
  },
  'cp-json-import-added': {
    class: 'structural',
    size: 'small',
    details: [
      'module added: weights.json',
      'variable weights removed (policy.ts)',
      'import added: policy.ts ← ./weights.json {default}',
    ],
  },
  'cp-json-weight-added': {
    class: 'structural',
    size: 'small',
    details: [
      'shape of weights.json changed',
    ],
  },
  'cp-json-weights': {
    class: 'parametric',
    size: 'small',
    details: [
      'w[2]: 1.0 → 1.4 (weights.json:2)',
      'w[3]: 0.5 → 0.7 (weights.json:2)',
    ],
  },
  'cp-loop-to-closed-form': {
    class: 'structural',
    size: 'small',
    details: [
      'for loop removed in Policy.act',
      'method Policy.act modified (policy.ts)',
    ],
  },
  'cp-method-added': {
    class: 'structural',
    size: 'small',
    details: [
      'method Policy.reset added (policy.ts)',
    ],
  },
  'cp-module-merge': {
    class: 'structural',
    size: 'medium',
    details: [
      'module removed: math.ts',
      'function clamp moved math.ts → policy.ts',
      'import removed: policy.ts ← ./math {clamp}',
    ],
  },
  'cp-module-split': {
    class: 'structural',
    size: 'medium',
    details: [
      'module added: math.ts',
      'function clamp moved policy.ts → math.ts',
      'import added: policy.ts ← ./math {clamp}',
    ],
  },
  'cp-negate-constant': {
    class: 'parametric',
    size: 'small',
    details: [
      'Policy.damping: 0.1 → -0.1 (policy.ts:9)',
    ],
  },
  'cp-reformat': {
    class: 'parametric',
    cosmetic: true,
    size: 'medium',
    details: [
      'no literal or topology change (comments, formatting or types only)',
    ],
  },
  'cp-rename-and-retune': {
    class: 'structural',
    size: 'small',
    details: [
      'rename only: variable angularVelocity → omega (policy.ts)',
      'Policy.gain: 0.5 → 0.6 (policy.ts:7)',
    ],
  },
  'cp-rename-variable': {
    class: 'structural',
    size: 'medium',
    details: [
      'rename only: variable score → total (policy.ts)',
    ],
  },
  'cp-retune-gain': {
    class: 'parametric',
    size: 'small',
    details: [
      'Policy.gain: 0.5 → 0.7 (policy.ts:7)',
    ],
  },
  'cp-retune-loop-bound': {
    class: 'parametric',
    size: 'small',
    details: [
      'Policy.act: 4 → 3 (policy.ts:19)',
    ],
  },
  'cp-retune-several': {
    class: 'parametric',
    size: 'small',
    details: [
      'Policy.gain: 0.5 → 0.9 (policy.ts:7)',
      'Policy.damping: 0.1 → 0.25 (policy.ts:9)',
      'Policy.act: 1 → 0 (policy.ts:27)',
    ],
  },
  'cp-retune-threshold': {
    class: 'parametric',
    size: 'small',
    details: [
      'Policy.threshold: 0.05 → 0.02 (policy.ts:8)',
    ],
  },
  'cp-short-circuit-added': {
    class: 'structural',
    size: 'small',
    details: [
      '&& added in Policy.act',
      'method Policy.act modified (policy.ts)',
      'call added: Math.abs in Policy.act',
    ],
  },
  'cp-split-and-retune': {
    class: 'structural',
    size: 'small',
    details: [
      'module added: squash.ts',
      'function squash moved policy.ts → squash.ts',
      'import added: policy.ts ← ./squash {squash}',
      'squash: 0.5 → 0.8 (squash.ts:2)',
    ],
  },
  'cp-state-field-memory': {
    class: 'structural',
    size: 'small',
    details: [
      'state field Policy.previousAngle added',
      'method Policy.act modified (policy.ts)',
    ],
  },
  'cp-string-mode': {
    class: 'parametric',
    size: 'small',
    details: [
      "Policy.mode: 'linear' → 'bang-bang' (policy.ts:10)",
    ],
  },
  'cp-ternary-replaces-if': {
    class: 'structural',
    size: 'small',
    details: [
      'if removed in Policy.act',
      'ternary added in Policy.act',
      'method Policy.act modified (policy.ts)',
    ],
  },
  'cp-type-annotations-only': {
    class: 'parametric',
    cosmetic: true,
    size: 'small',
    details: [
      'no literal or topology change (comments, formatting or types only)',
    ],
  },
  'cp-unreachable-file-only': {
    class: 'identical',
    size: 'none',
    details: [
      'no change (same content hash)',
    ],
  },
  'cp-while-replaces-for': {
    class: 'structural',
    size: 'small',
    details: [
      'for loop removed in Policy.act',
      'while loop added in Policy.act',
      'method Policy.act modified (policy.ts)',
    ],
  },
  'cp-workspace-layout': {
    class: 'parametric',
    size: 'small',
    details: [
      'Policy.gain: 0.5 → 0.55 (policy.ts:7)',
    ],
  },
  'mc-checkpoint-layout': {
    class: 'parametric',
    size: 'small',
    details: [
      'Policy.act: 0 → 0.001 (policy.ts:19)',
    ],
  },
  'mc-constant-extracted': {
    class: 'structural',
    size: 'small',
    details: [
      'variable PUSH_LEFT added (policy.ts)',
      'method Policy.act modified (policy.ts)',
    ],
  },
  'mc-energy-helper': {
    class: 'structural',
    size: 'small',
    details: [
      'function energy added (policy.ts)',
      'if added in Policy.act',
      'ternary added in Policy.act',
      'method Policy.act modified (policy.ts)',
      'call added: energy in Policy.act',
    ],
  },
  'mc-json-reformat': {
    class: 'parametric',
    cosmetic: true,
    size: 'small',
    details: [
      'no literal or topology change (comments, formatting or types only)',
    ],
  },
  'mc-json-table-retune': {
    class: 'parametric',
    size: 'small',
    details: [
      'goal.position: 0.45 → 0.4 (gains.json:2)',
      'rest: -0.5 → -0.45 (gains.json:3)',
    ],
  },
  'mc-method-removed': {
    class: 'structural',
    size: 'small',
    details: [
      'method Policy.reset removed (policy.ts)',
    ],
  },
  'mc-nested-if': {
    class: 'structural',
    size: 'small',
    details: [
      'if added in Policy.act',
      'method Policy.act modified (policy.ts)',
    ],
  },
  'mc-nullish-default': {
    class: 'structural',
    size: 'small',
    details: [
      '?? added in Policy.act',
      'method Policy.act modified (policy.ts)',
    ],
  },
  'mc-phase-machine': {
    class: 'structural',
    size: 'medium',
    details: [
      'state field Policy.phase added',
      'switch added in Policy.act',
      '2 cases added in Policy.act',
      'method Policy.act modified (policy.ts)',
    ],
  },
  'mc-retune-deadband': {
    class: 'parametric',
    size: 'small',
    details: [
      'DEADBAND: 0.001 → 0.004 (policy.ts:4)',
    ],
  },
  'mc-state-field-removed': {
    class: 'structural',
    size: 'medium',
    details: [
      'state field Policy.steps removed',
      'method Policy.reset modified (policy.ts)',
      'method Policy.act modified (policy.ts)',
    ],
  },
  'mc-ternary-retuned': {
    class: 'parametric',
    size: 'small',
    details: [
      'Policy.act: 0 → 1 (policy.ts:22)',
    ],
  },
  'mg-bfs-planner-added': {
    class: 'structural',
    size: 'large',
    details: [
      'module added: planner.ts',
      'function bfs added (planner.ts): while loop, 3 ifs, 2 &&, for-of loop, 4 ||, for loop',
      'method Policy.step added (policy.ts): if, ternary',
      'if added in Policy.act',
      'ternary added in Policy.act',
      'method Policy.act modified (policy.ts)',
      'import added: planner.ts ← ./grid {cell, OBJ_WALL, VIEW}',
      'import added: policy.ts ← ./planner {bfs}',
      'call added: bfs in Policy.act',
      'call added: this.step in Policy.act',
    ],
  },
  'mg-direction-table': {
    class: 'parametric',
    size: 'small',
    details: [
      'DIRS[0][0]: 1 → 0 (policy.ts:7)',
      'DIRS[0][1]: 0 → 1 (policy.ts:7)',
      'DIRS[1][0]: 0 → 1 (policy.ts:7)',
      'DIRS[1][1]: 1 → 0 (policy.ts:7)',
      'DIRS[2][0]: -1 → 0 (policy.ts:7)',
      'DIRS[2][1]: 0 → -1 (policy.ts:7)',
      'DIRS[3][0]: 0 → -1 (policy.ts:7)',
      'DIRS[3][1]: -1 → 0 (policy.ts:7)',
    ],
  },
  'mg-helper-renamed': {
    class: 'structural',
    size: 'small',
    details: [
      'rename only: function findGoal → locateGoal (grid.ts, policy.ts)',
    ],
  },
  'mg-import-removed': {
    class: 'structural',
    size: 'small',
    details: [
      'function cell added (policy.ts)',
      'import removed: policy.ts ← ./grid {cell}',
    ],
  },
  'mg-loop-added-in-helper': {
    class: 'structural',
    size: 'medium',
    details: [
      'function countWalls added (grid.ts): for loop, if',
    ],
  },
  'mg-memory-visited': {
    class: 'structural',
    size: 'small',
    details: [
      'state field Policy.visited added',
      'if added in Policy.act',
      '&& added in Policy.act',
      'method Policy.act modified (policy.ts)',
      'call added: this.visited.has in Policy.act',
      'call added: this.visited.add in Policy.act',
    ],
  },
  'mg-mission-string': {
    class: 'parametric',
    size: 'small',
    details: [
      "Policy.constructor: 'explore' → 'explore the rooms' (policy.ts:14)",
    ],
  },
  'mg-module-to-index-dir': {
    class: 'structural',
    size: 'medium',
    details: [
      'module added: lib/index.ts',
      'module removed: grid.ts',
      'variable VIEW moved grid.ts → lib/index.ts',
      'variable OBJ_GOAL moved grid.ts → lib/index.ts',
      'variable OBJ_WALL moved grid.ts → lib/index.ts',
      'function cell moved grid.ts → lib/index.ts',
      'function findGoal moved grid.ts → lib/index.ts',
      'import added: policy.ts ← ./lib {cell, findGoal, OBJ_WALL}',
      'import removed: policy.ts ← ./grid {cell, findGoal, OBJ_WALL}',
    ],
  },
  'mg-object-index': {
    class: 'parametric',
    size: 'small',
    details: [
      'OBJ_GOAL: 8 → 9 (grid.ts:3)',
    ],
  },
  'mg-retune-turn-bias': {
    class: 'parametric',
    size: 'small',
    details: [
      'Policy.turnBias: 0.3 → 0.45 (policy.ts:10)',
    ],
  },
  'mg-syntax-error': {
    class: 'structural',
    size: 'small',
    details: [
      "problem in policy.ts: syntax error at line 26: ',' expected.",
      "problem in policy.ts: syntax error at line 26: ';' expected.",
      'problem in policy.ts: syntax error at line 28: Declaration or statement expected.',
      '… and 1 more problems',
      'method Policy.if added (policy.ts)',
      'state field Policy.ahead added',
      'if removed in Policy.act',
      '2 ternaries removed in Policy.act',
      '2 ternaries added in module code of policy.ts',
      'method Policy.act modified (policy.ts)',
      'call added: Math.random in policy.ts',
      'call removed: cell in Policy.act',
      'call removed: Math.random in Policy.act',
      'module-level code changed in policy.ts',
    ],
  },

};

const results = new Map<string, EditAnalysis>();

async function analysis(pair: string): Promise<EditAnalysis> {
  const hit = results.get(pair);
  if (hit) return hit;
  const r = await analyzeEdit(path.join(FIXTURES, pair, 'parent'), path.join(FIXTURES, pair, 'child'));
  if (!r.ok) throw new Error(`${pair}: ${r.error}`);
  results.set(pair, r.analysis);
  return r.analysis;
}

const pick = <T extends object, K extends keyof T>(xs: T[], ...keys: K[]): Pick<T, K>[] =>
  xs.map((x) => Object.fromEntries(keys.map((k) => [k, x[k]])) as Pick<T, K>);

describe('edit classification: labelled pair library', () => {
  it('has at least 40 pairs, each with an expectation', () => {
    const pairs = fs.readdirSync(FIXTURES).filter((n) => fs.statSync(path.join(FIXTURES, n)).isDirectory());
    assert.ok(pairs.length >= 40, `only ${pairs.length} pairs`);
    assert.deepEqual(pairs.sort(), Object.keys(expectations).sort());
  });

  for (const [pair, e] of Object.entries(expectations)) {
    it(`${pair}: ${e.class}${e.cosmetic ? ' (cosmetic)' : ''}`, async () => {
      const a = await analysis(pair);
      assert.equal(a.class, e.class);
      assert.equal(a.cosmetic, e.cosmetic ?? false);
      assert.equal(a.size.bin, e.size);
      assert.deepEqual(a.details, e.details);
      assert.equal(a.structural === null, a.class !== 'structural');
    });
  }
});

describe('edit classification: structured results', () => {
  it('retuned gain: one number literal, with file, lines, old/new values and the field it initialises', async () => {
    const a = await analysis('cp-retune-gain');
    assert.deepEqual(a.literalChanges, [
      { file: 'policy.ts', line: 7, parentLine: 7, kind: 'number', old: 0.5, new: 0.7, oldText: '0.5', newText: '0.7', enclosing: 'Policy.gain' },
    ]);
    assert.equal(a.parentMetrics.literals, a.childMetrics.literals);
  });

  it('unary minus is part of the literal: 0.1 → -0.1 is a value change, not a new operator', async () => {
    const a = await analysis('cp-negate-constant');
    assert.deepEqual(pick(a.literalChanges, 'old', 'new', 'newText'), [{ old: 0.1, new: -0.1, newText: '-0.1' }]);
  });

  it('booleans and strings are literals too', async () => {
    assert.deepEqual(pick((await analysis('cp-boolean-flag')).literalChanges, 'kind', 'old', 'new'), [{ kind: 'boolean', old: true, new: false }]);
    assert.deepEqual(pick((await analysis('cp-string-mode')).literalChanges, 'kind', 'old', 'new'), [{ kind: 'string', old: 'linear', new: 'bang-bang' }]);
  });

  it('JSON weight tables: values are literals addressed by JSON path, the shape is topology', async () => {
    const w = await analysis('cp-json-weights');
    assert.deepEqual(pick(w.literalChanges, 'file', 'enclosing', 'old', 'new'), [
      { file: 'weights.json', enclosing: 'w[2]', old: 1, new: 1.4 },
      { file: 'weights.json', enclosing: 'w[3]', old: 0.5, new: 0.7 },
    ]);
    const t = await analysis('mc-json-table-retune');
    assert.deepEqual(pick(t.literalChanges, 'enclosing', 'old', 'new', 'line'), [
      { enclosing: 'goal.position', old: 0.45, new: 0.4, line: 2 },
      { enclosing: 'rest', old: -0.5, new: -0.45, line: 3 },
    ]);
    const grown = await analysis('cp-json-weight-added');
    assert.deepEqual(grown.structural?.moduleCodeChanged, ['weights.json']);
  });

  it('reformatting, comments and type annotations change the text and the hash but not the topology', async () => {
    for (const pair of ['cp-reformat', 'cp-comment-only', 'cp-type-annotations-only', 'mc-json-reformat']) {
      const a = await analysis(pair);
      assert.notEqual(a.parentHash, a.childHash, pair);
      assert.ok(a.size.linesAdded + a.size.linesRemoved > 0, pair);
      assert.deepEqual(a.literalChanges, [], pair);
    }
  });

  it('identical: same content hash, even when a file the policy never imports changed', async () => {
    const a = await analysis('cp-unreachable-file-only');
    assert.equal(a.parentHash, a.childHash);
    assert.deepEqual(a.unreachable.child, ['env.d.ts', 'notes.ts']);
    assert.equal(a.size.linesAdded, 0);
  });

  it('a new helper function: added by name, and the call to it', async () => {
    const s = (await analysis('cp-helper-function')).structural!;
    assert.deepEqual(s.unitsAdded, [{ kind: 'function', name: 'clamp', file: 'policy.ts' }]);
    assert.deepEqual(pick(s.callsAdded, 'target', 'scope'), [
      { target: 'Math.max', scope: 'clamp' },
      { target: 'Math.min', scope: 'clamp' },
      { target: 'clamp', scope: 'Policy.act' },
    ]);
    assert.deepEqual(s.unitsModified, [{ kind: 'method', name: 'Policy.act', file: 'policy.ts' }]);
  });

  it('a BFS planner module: module, function, control flow, imports and calls', async () => {
    const a = await analysis('mg-bfs-planner-added');
    const s = a.structural!;
    assert.deepEqual(s.modulesAdded, ['planner.ts']);
    assert.deepEqual(s.unitsAdded.map((u) => u.name), ['bfs', 'Policy.step']);
    const bfsFlow = Object.fromEntries(s.controlFlow.filter((c) => c.scope === 'bfs').map((c) => [c.kind, c.delta]));
    assert.deepEqual(bfsFlow, { while: 1, if: 3, and: 2, 'for-of': 1, or: 4, for: 1 });
    assert.ok(s.importsAdded.some((i) => i.file === 'policy.ts' && i.from === './planner' && i.name === 'bfs'));
    assert.equal(a.childMetrics.files, a.parentMetrics.files + 1);
    assert.equal(a.childMetrics.loops, a.parentMetrics.loops + 3);
  });

  it('a state field for memory: field added on Policy, counted in the metrics', async () => {
    const a = await analysis('cp-state-field-memory');
    assert.deepEqual(a.structural!.stateFieldsAdded, [{ className: 'Policy', name: 'previousAngle', file: 'policy.ts' }]);
    assert.equal(a.childMetrics.stateFields, a.parentMetrics.stateFields + 1);
    const v = await analysis('mg-memory-visited');
    assert.deepEqual(pick(v.structural!.stateFieldsAdded, 'className', 'name'), [{ className: 'Policy', name: 'visited' }]);
    const gone = await analysis('mc-state-field-removed');
    assert.deepEqual(pick(gone.structural!.stateFieldsRemoved, 'className', 'name'), [{ className: 'Policy', name: 'steps' }]);
  });

  it('helper classes: their fields (declared, parameter properties, this.x =) are state too', async () => {
    const s = (await analysis('cp-helper-class')).structural!;
    assert.deepEqual(s.stateFieldsAdded.map((f) => `${f.className}.${f.name}`).sort(), ['Policy.smoother', 'Smoother.alpha', 'Smoother.value']);
    assert.deepEqual(s.unitsAdded.map((u) => `${u.kind} ${u.name}`), ['class Smoother', 'field Smoother.value', 'method Smoother.constructor', 'method Smoother.update', 'field Policy.smoother']);
  });

  it('a loop replaced by a closed form: the loop is removed, nothing is invented about its literals', async () => {
    const a = await analysis('cp-loop-to-closed-form');
    assert.deepEqual(pick(a.structural!.controlFlow, 'kind', 'scope', 'delta'), [{ kind: 'for', scope: 'Policy.act', delta: -1 }]);
    assert.deepEqual(a.literalChanges, []);
    assert.equal(a.childMetrics.loops, a.parentMetrics.loops - 1);
  });

  it('an if around a constant: one if in Policy.act, cyclomatic complexity up by one', async () => {
    const a = await analysis('cp-if-around-constant');
    assert.deepEqual(pick(a.structural!.controlFlow, 'kind', 'scope', 'delta'), [{ kind: 'if', scope: 'Policy.act', delta: 1 }]);
    assert.equal(a.childMetrics.cyclomaticTotal, a.parentMetrics.cyclomaticTotal + 1);
  });

  it('a nested if deepens the nesting metric', async () => {
    const a = await analysis('mc-nested-if');
    assert.equal(a.parentMetrics.maxNestingDepth, 1);
    assert.equal(a.childMetrics.maxNestingDepth, 2);
  });

  it('a phase machine: state field, switch and cases', async () => {
    const s = (await analysis('mc-phase-machine')).structural!;
    assert.deepEqual(pick(s.stateFieldsAdded, 'name'), [{ name: 'phase' }]);
    assert.deepEqual(pick(s.controlFlow, 'kind', 'delta'), [{ kind: 'switch', delta: 1 }, { kind: 'case', delta: 2 }]);
  });

  it('a module split: the function moved, nothing added or removed by name', async () => {
    const s = (await analysis('cp-module-split')).structural!;
    assert.deepEqual(s.unitsMoved, [{ kind: 'function', name: 'clamp', from: 'policy.ts', to: 'math.ts', modified: false }]);
    assert.deepEqual(s.unitsAdded, []);
    assert.deepEqual(s.unitsRemoved, []);
    assert.deepEqual(s.controlFlow, [], 'control flow moves with the function');
    const merged = (await analysis('cp-module-merge')).structural!;
    assert.deepEqual(merged.modulesRemoved, ['math.ts']);
  });

  it('a split plus a retune inside the moved function: the literal is found where it went', async () => {
    const a = await analysis('cp-split-and-retune');
    assert.deepEqual(a.structural!.unitsMoved, [{ kind: 'function', name: 'squash', from: 'policy.ts', to: 'squash.ts', modified: false }]);
    assert.deepEqual(pick(a.literalChanges, 'file', 'line', 'parentLine', 'enclosing', 'old', 'new'), [
      { file: 'squash.ts', line: 2, parentLine: 7, enclosing: 'squash', old: 0.5, new: 0.8 },
    ]);
  });

  it('a module moved into a folder imported as ./lib resolves to lib/index.ts', async () => {
    const a = await analysis('mg-module-to-index-dir');
    assert.deepEqual(a.structural!.modulesAdded, ['lib/index.ts']);
    assert.equal(a.structural!.unitsMoved.length, 5);
  });

  it('a renamed local variable is structural, reported as a rename only', async () => {
    const s = (await analysis('cp-rename-variable')).structural!;
    assert.equal(s.renameOnly, true);
    assert.deepEqual(s.renames, [{ file: 'policy.ts', from: 'score', to: 'total', declares: 'variable' }]);
    assert.deepEqual(s.unitsModified, []);
  });

  it('a rename plus a retune: the rename and the literal are both reported', async () => {
    const a = await analysis('cp-rename-and-retune');
    assert.deepEqual(pick(a.structural!.renames, 'from', 'to'), [{ from: 'angularVelocity', to: 'omega' }]);
    assert.deepEqual(pick(a.literalChanges, 'old', 'new', 'enclosing'), [{ old: 0.5, new: 0.6, enclosing: 'Policy.gain' }]);
  });

  it('a function renamed across modules is one rename, in both files', async () => {
    const s = (await analysis('mg-helper-renamed')).structural!;
    assert.equal(s.renameOnly, true);
    assert.deepEqual(s.renames.map((r) => `${r.file}:${r.from}→${r.to}`), ['grid.ts:findGoal→locateGoal', 'policy.ts:findGoal→locateGoal']);
  });

  it('a different library call is not a rename (the policy does not declare Math.abs)', async () => {
    const s = (await analysis('cp-call-target-changed')).structural!;
    assert.equal(s.renameOnly, false);
    assert.deepEqual(pick(s.callsAdded, 'target'), [{ target: 'Math.sign' }]);
    assert.deepEqual(pick(s.callsRemoved, 'target', 'delta'), [{ target: 'Math.abs', delta: -1 }]);
  });

  it('a syntax error is reported first and does not stop the analysis', async () => {
    const a = await analysis('mg-syntax-error');
    assert.ok(a.issues.length > 0);
    assert.match(a.details[0]!, /^problem in policy\.ts: syntax error at line 26/);
  });

  it('workspace roots and checkpoint folders are read like policy folders', async () => {
    const w = await analysis('cp-workspace-layout');
    assert.deepEqual(pick(w.literalChanges, 'old', 'new'), [{ old: 0.5, new: 0.55 }]);
    const c = await analysis('mc-checkpoint-layout');
    assert.deepEqual(pick(c.literalChanges, 'old', 'new'), [{ old: 0, new: 0.001 }]);
    assert.deepEqual(c.unreachable.child, [], 'bundle.js and manifest.json sit outside policy/');
  });
});
