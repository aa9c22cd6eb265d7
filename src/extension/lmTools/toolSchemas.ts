/**
 * The input schemas of the chat agent's language-model tools, taken from the run protocol: a tool
 * accepts exactly what the runner method behind it accepts. VS Code reads a static copy from
 * package.json (`contributes.languageModelTools[].inputSchema`); test/unit/extension/lmToolSchemas.test.ts
 * checks that copy against `lmToolInputJsonSchema`. No `vscode` import, so the test runs in Node.
 */
import { z } from 'zod';
import { EmptyParamsSchema, FeedbackParamsSchema, FinishParamsSchema, SubmitParamsSchema } from '../../protocol/run';

export const LM_TOOL_INPUTS = {
  policyforge_submit: SubmitParamsSchema,
  policyforge_status: EmptyParamsSchema,
  policyforge_feedback: FeedbackParamsSchema,
  policyforge_finish: FinishParamsSchema,
} as const;

export type LmToolName = keyof typeof LM_TOOL_INPUTS;
export type LmToolInput<N extends LmToolName> = z.input<(typeof LM_TOOL_INPUTS)[N]>;

/** The JSON Schema package.json must declare for tool `name` (what the model is told to send). */
export function lmToolInputJsonSchema(name: LmToolName): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(LM_TOOL_INPUTS[name], { io: 'input' });
  return schema;
}
