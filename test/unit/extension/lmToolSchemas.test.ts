/** package.json's language-model tool declarations match the protocol the tools run against. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkToolInput, LM_TOOL_INPUTS, lmToolInputJsonSchema, type LmToolName } from '../../../src/extension/lmTools/toolSchemas';

interface ManifestTool {
  name: string;
  inputSchema?: unknown;
}

const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as { contributes: { languageModelTools: ManifestTool[] } };
const declared = manifest.contributes.languageModelTools;
const isToolName = (name: string): name is LmToolName => Object.hasOwn(LM_TOOL_INPUTS, name);

describe('language-model tool schemas', () => {
  it('package.json declares exactly the tools that have protocol input schemas', () => {
    assert.deepEqual(declared.map((t) => t.name).sort(), Object.keys(LM_TOOL_INPUTS).sort());
  });

  for (const tool of declared) {
    it(`${tool.name}: package.json's inputSchema is the protocol's params schema as JSON Schema`, () => {
      assert.ok(isToolName(tool.name), `${tool.name} has no protocol schema`);
      assert.deepEqual(tool.inputSchema, lmToolInputJsonSchema(tool.name), 'regenerate the inputSchema from src/extension/lmTools/toolSchemas.ts');
    });
  }

  it('the runtime check agrees with what the declared schema says', () => {
    const submit = LM_TOOL_INPUTS.policyforge_submit;
    assert.equal(submit.safeParse({ cases: '0-7,12', note: 'wider gain' }).success, true);
    assert.equal(submit.safeParse({ episodes: 4 }).success, true);
    assert.equal(submit.safeParse({ episodes: 0 }).success, false, 'exclusiveMinimum 0');
    assert.equal(submit.safeParse({ cases: [], episodes: 2 }).success, false);
    assert.equal(submit.safeParse({ cases: [1], extra: true }).success, false, 'additionalProperties false');
    assert.equal(LM_TOOL_INPUTS.policyforge_finish.safeParse({ candidates: [] }).success, false, 'minItems 1');
    assert.equal(LM_TOOL_INPUTS.policyforge_status.safeParse({}).success, true);
    assert.deepEqual(checkToolInput('policyforge_feedback', { submission: 2 }), { ok: true, params: { submission: 2 } });
    assert.deepEqual(checkToolInput('policyforge_feedback', { submission: 'latest' }), { ok: false, error: 'invalid policyforge_feedback input: submission: Invalid input: expected number, received string' });
  });
});
