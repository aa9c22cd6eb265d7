import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cartPolicy, cleanupTmp, tmpDir, useTempDataDir } from '../runner/helpers';
import { pf } from './cliHelpers';

interface EvalJson {
  typeCheck: { cached: boolean; ms: number } | null;
  diagnostics: { kind: string; file: string; message: string }[];
}

/** A policy folder whose only type lives in a file the bundle never reads (a type-only import). */
function policyFolder(root: string, gain: string): string {
  const dir = path.join(root, 'policy');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'env.d.ts'), 'type PolicyContext = unknown;\ntype Observation = number[];\ntype Action = number;\n');
  fs.writeFileSync(path.join(dir, 'gain.ts'), `export type Gain = ${gain};\n`);
  fs.writeFileSync(path.join(dir, 'policy.ts'), `import type { Gain } from './gain';\nconst k: Gain = 0.5;\n${cartPolicy(0.5).replace('0.500', 'k')}`);
  return dir;
}

describe('cli: eval caches its type check by the sources', function () {
  this.timeout(120_000);
  let data: string;
  beforeEach(() => {
    data = useTempDataDir();
  });
  after(() => cleanupTmp());

  const evalJson = (policy: string): EvalJson => {
    const r = pf(tmpDir('cwd'), 'eval', '--env', 'CartPole-v1', '--policy', policy, '--episodes', '2', '--workers', '1', '--json');
    assert.equal(r.code, 0, r.err);
    return r.json() as unknown as EvalJson;
  };
  const entries = (): string[] => fs.readdirSync(path.join(data, 'cache', 'typecheck')).filter((f) => f.endsWith('.json'));

  it('runs the checker once for the same sources, again after an edit the bundle does not even read, and ignores a corrupt entry', () => {
    const policy = policyFolder(tmpDir('ws'), 'number');
    const first = evalJson(policy);
    assert.equal(first.typeCheck?.cached, false);
    assert.deepEqual(first.diagnostics, []);
    assert.equal(entries().length, 1);

    const second = evalJson(policy);
    assert.equal(second.typeCheck?.cached, true, 'the same sources are not checked again');
    assert.ok(second.typeCheck.ms < first.typeCheck.ms, `a cache hit (${second.typeCheck.ms} ms) is cheaper than the check (${first.typeCheck.ms} ms)`);

    // Only the type-only import changes: the bundle is the same, the check is not.
    fs.writeFileSync(path.join(policy, 'gain.ts'), 'export type Gain = string;\n');
    const edited = evalJson(policy);
    assert.equal(edited.typeCheck?.cached, false);
    assert.match(edited.diagnostics.find((d) => d.kind === 'type')?.message ?? '', /not assignable to type 'string'/);
    assert.equal(entries().length, 2);
    assert.equal(evalJson(policy).typeCheck?.cached, true);

    for (const f of entries()) fs.writeFileSync(path.join(data, 'cache', 'typecheck', f), '{"format":"policyforge-typecheck-1","diagnostics":[{"file":');
    const afterCorruption = evalJson(policy);
    assert.equal(afterCorruption.typeCheck?.cached, false, 'a corrupt entry is ignored, not trusted');
    assert.deepEqual(afterCorruption.diagnostics, edited.diagnostics);
    assert.equal(evalJson(policy).typeCheck?.cached, true, 'and rewritten whole');
  });

  it('says in its text output whether the check ran', () => {
    const policy = policyFolder(tmpDir('ws'), 'number');
    const run = (): string => pf(tmpDir('cwd'), 'eval', '--env', 'CartPole-v1', '--policy', policy, '--episodes', '1', '--workers', '1').out;
    assert.match(run(), /^ {2}types {2}no type errors; checked in \d+\.\d\d s$/m);
    assert.match(run(), /^ {2}types {2}no type errors; checked before, result reused from the cache$/m);
    assert.equal(pf(tmpDir('cwd'), 'eval', '--env', 'CartPole-v1', '--policy', policy, '--episodes', '1', '--skip-typecheck', '--json').json().typeCheck, null);
  });
});
