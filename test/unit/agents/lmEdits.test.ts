import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applyEdits, parseReply, replaceOnce } from '../../../src/agents/lm/edits';
import { Ledger } from '../../../src/agents/lm/ledger';
import { cleanupTmp, tmpDir } from '../runner/helpers';

const POLICY = 'export class Policy {\n  act(o: Observation): Action {\n    return o[2]! > 0 ? 1 : 0;\n  }\n}\n';

function workspace(): string {
  const ws = tmpDir('lm-edits');
  fs.mkdirSync(path.join(ws, 'policy'));
  fs.writeFileSync(path.join(ws, 'policy', 'policy.ts'), POLICY);
  fs.writeFileSync(path.join(ws, 'policy', 'env.d.ts'), '// generated\n');
  return ws;
}

describe('LM agent edits', () => {
  after(() => cleanupTmp());

  it('reads whole files, search/replace blocks, SUBMIT and FINISH', () => {
    const reply = [
      'Plan: add a helper.',
      '### FILE `policy/helper.ts`',
      '```ts',
      'export const k = 0.5;',
      '```',
      'EDIT policy/policy.ts',
      '```',
      '<<<<<<< SEARCH',
      '    return o[2]! > 0 ? 1 : 0;',
      '=======',
      '    return o[2]! + k * o[3]! > 0 ? 1 : 0;',
      '>>>>>>> REPLACE',
      '```',
      'SUBMIT 0-3, 8',
      'FINISH',
    ].join('\n');
    const p = parseReply(reply);
    assert.deepEqual(p.problems, []);
    assert.deepEqual(p.blocks, [
      { kind: 'file', file: 'policy/helper.ts', content: 'export const k = 0.5;\n' },
      { kind: 'replace', file: 'policy/policy.ts', search: '    return o[2]! > 0 ? 1 : 0;', replace: '    return o[2]! + k * o[3]! > 0 ? 1 : 0;' },
    ]);
    assert.deepEqual(p.submit, { cases: '0-3,8' });
    assert.equal(p.finish, true);
    assert.deepEqual(parseReply('SUBMIT episodes 6').submit, { episodes: 6 });
  });

  it('names what is malformed', () => {
    assert.match(parseReply('EDIT policy/policy.ts\n<<<<<<< SEARCH\nx\n>>>>>>> REPLACE\n').problems[0]!, /malformed.*=======/);
    assert.match(parseReply('<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n').problems[0]!, /needs an "EDIT policy\/…" line/);
    assert.match(parseReply('FILE policy/a.ts\n```ts\nno end\n').problems[0]!, /never closed/);
    assert.match(parseReply('FILE policy/a.ts\nexport {}\n').problems[0]!, /code fence/);
    assert.match(parseReply('SUBMIT everything').problems[0]!, /SUBMIT needs/);
  });

  it('applies all blocks or none, only under policy/', () => {
    const ws = workspace();
    const bad = applyEdits(ws, [
      { kind: 'file', file: 'policy/new.ts', content: 'export {};\n' },
      { kind: 'replace', file: 'policy/policy.ts', search: 'not there', replace: 'x' },
      { kind: 'file', file: '../outside.ts', content: 'x' },
      { kind: 'file', file: 'policy/../package.json', content: 'x' },
      { kind: 'file', file: 'policy/env.d.ts', content: 'x' },
      { kind: 'replace', file: 'policy/missing.ts', search: 'a', replace: 'b' },
    ]);
    assert.equal(bad.ok, false);
    assert.equal(bad.errors.length, 5);
    assert.match(bad.errors[0]!, /block 2 .*not found .*"not there"/);
    assert.match(bad.errors[1]!, /only files under policy\//);
    assert.match(bad.errors[2]!, /only files under policy\//);
    assert.match(bad.errors[3]!, /generated/);
    assert.match(bad.errors[4]!, /does not exist; create it with FILE/);
    assert.equal(fs.existsSync(path.join(ws, 'policy', 'new.ts')), false, 'nothing is written when a block fails');

    const good = applyEdits(ws, [
      { kind: 'file', file: './policy/lib/gain.ts', content: 'export const g = 2;\n' },
      { kind: 'replace', file: 'policy/policy.ts', search: 'o[2]! > 0', replace: 'o[2]! > 0.1' },
      { kind: 'replace', file: 'policy/policy.ts', search: '? 1 : 0', replace: '? 0 : 1' },
    ]);
    assert.deepEqual(good, { ok: true, written: ['policy/lib/gain.ts', 'policy/policy.ts'], errors: [] });
    assert.match(fs.readFileSync(path.join(ws, 'policy', 'policy.ts'), 'utf8'), /o\[2\]! > 0\.1 \? 0 : 1/);
  });

  it('matches SEARCH text exactly once, forgiving trailing spaces only', () => {
    assert.equal(replaceOnce('a  \nb\n', 'a\nb', 'c'), 'c\n');
    assert.match((replaceOnce('x\nx\n', 'x', 'y') as { error: string }).error, /occurs 2 times/);
    assert.match((replaceOnce('x\n', '  ', 'y') as { error: string }).error, /empty/);
  });

  it('bounds each call by the token and cost caps', () => {
    const ledger = new Ledger({ inPerMTok: 2, outPerMTok: 10 }, { tokens: 10_000, cost: 0.05, turns: 3 });
    assert.deepEqual(ledger.nextCall(1, 1000, 4096), { ok: true, maxOutputTokens: 4096 });
    ledger.record(5000, 1000); // 0.01 + 0.01
    assert.equal(ledger.spend.cost, 0.02);
    assert.deepEqual(ledger.nextCall(2, 1000, 4096), { ok: true, maxOutputTokens: 2800 }, 'the tighter of the caps bounds the reply: 3000 tokens left, 0.028 buys 2800');
    ledger.record(2000, 1500);
    const stop = ledger.nextCall(3, 1000, 4096);
    assert.equal(stop.ok === false && stop.ending, 'token_cap');
    const rich = new Ledger({ inPerMTok: 0, outPerMTok: 1000 }, { cost: 1 });
    assert.deepEqual(rich.nextCall(1, 100, 4096), { ok: true, maxOutputTokens: 1000 }, 'a reply cannot cost more than the cost left');
    rich.record(0, 900);
    const broke = rich.nextCall(2, 100, 4096);
    assert.equal(broke.ok === false && broke.ending, 'cost_cap');
    assert.equal((ledger.nextCall(4, 0, 10) as { ending: string }).ending, 'turn_limit');
  });
});
