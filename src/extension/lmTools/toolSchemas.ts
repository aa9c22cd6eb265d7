/**
 * The input schemas of the chat agent's language-model tools, taken from the run protocol: a tool
 * accepts exactly what the runner method behind it accepts. VS Code reads a static copy from
 * package.json (`contributes.languageModelTools[].inputSchema`); test/unit/extension/lmToolSchemas.test.ts
 * checks that copy against `lmToolInputJsonSchema`. No `vscode` import, so the test runs in Node.
 */
import { z } from 'zod';
import { describeIssues } from '../../protocol/documents';
import { EmptyParamsSchema, FeedbackParamsSchema, FinishParamsSchema, SubmitParamsSchema } from '../../protocol/run';
import { ArenaPinParamsSchema } from '../../protocol/arena';

/** Arena runs: pin, unpin or drop a pool opponent (`arena.pin` / `arena.drop`). */
export const ArenaPoolToolSchema = z
  .object({ action: z.enum(['pin', 'unpin', 'drop']).describe('pin keeps the opponent in the pool, unpin undoes it, drop removes it.'), opponent: ArenaPinParamsSchema.shape.opponent })
  .strict();

export const LM_TOOL_INPUTS = {
  policyforge_submit: SubmitParamsSchema,
  policyforge_status: EmptyParamsSchema,
  policyforge_feedback: FeedbackParamsSchema,
  policyforge_finish: FinishParamsSchema,
  policyforge_pool: ArenaPoolToolSchema,
} as const;

export type LmToolName = keyof typeof LM_TOOL_INPUTS;
/** What the model sends. */
export type LmToolInput<N extends LmToolName> = z.input<(typeof LM_TOOL_INPUTS)[N]>;
/** What a tool runs with, once checked. */
export type LmToolParams<N extends LmToolName> = z.output<(typeof LM_TOOL_INPUTS)[N]>;

/** The table through a mapped type, so indexing it with a generic `N` keeps the schema's types tied to `N`. */
const LM_TOOL_SCHEMAS: { readonly [N in LmToolName]: z.ZodType<LmToolParams<N>, LmToolInput<N>> } = LM_TOOL_INPUTS;

export type CheckedToolInput<N extends LmToolName> = { ok: true; params: LmToolParams<N> } | { ok: false; error: string };

/** A tool's input checked against its protocol schema; the error names the bad field. */
export function checkToolInput<N extends LmToolName>(name: N, input: unknown): CheckedToolInput<N> {
  const parsed = LM_TOOL_SCHEMAS[name].safeParse(input);
  return parsed.success ? { ok: true, params: parsed.data } : { ok: false, error: `invalid ${name} input: ${describeIssues(parsed.error, 'input')}` };
}

/** The JSON Schema package.json must declare for tool `name` (what the model is told to send). */
export function lmToolInputJsonSchema(name: LmToolName): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(LM_TOOL_INPUTS[name], { io: 'input' });
  return schema;
}
