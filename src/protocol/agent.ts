/**
 * The record of an agent PolicyForge launched on a run (`.policyforge/agent/agent.json`, and
 * `report.json` → `agent`): who drove the run, how it ended, what it spent. Plain data and its
 * schema, so the CLI, the extension, the dashboard and the leaderboard read one checked shape.
 */
import { z } from 'zod';
import { lazySchema } from './lazySchema';

/**
 * How an agent's run ended:
 * - `agent_exited`: the agent stopped on its own with budget left (the launcher then finished the run);
 * - `agent_finished`: the agent ended the run itself (`finish`);
 * - `budget_spent`: the last episode of the budget was charged;
 * - `time_limit`: the wall-clock limit was reached;
 * - `retries_exhausted`: the agent kept failing and every retry was used;
 * - `token_cap`, `cost_cap`: the LM agent's spend reached a cap;
 * - `turn_limit`: the LM agent used all its turns;
 * - `cancelled`: the user stopped it;
 * - `model_error`: the model endpoint failed in a way a retry does not fix.
 */
export const AGENT_ENDINGS = ['agent_exited', 'agent_finished', 'budget_spent', 'time_limit', 'retries_exhausted', 'token_cap', 'cost_cap', 'turn_limit', 'cancelled', 'model_error'] as const;
export type AgentEnding = (typeof AGENT_ENDINGS)[number];

/** Tokens and money an LM agent spent; `cost` is in the unit of the configured prices (USD by convention). */
export interface AgentSpend {
  calls: number;
  tokensIn: number;
  tokensOut: number;
  cost: number;
}

export interface AgentRecord {
  kind: 'external' | 'lm';
  /** The command line (external) or `vendor/model` (LM). */
  agent: string;
  startedAt: string;
  endedAt?: string;
  ending?: AgentEnding;
  /** One line for people: the ending and anything that explains it. */
  detail?: string;
  spend?: AgentSpend;
  caps?: { tokens?: number; cost?: number; timeLimitS?: number };
  /** Each submission this agent made, with where its transcript shows it. */
  submissions: { submission: number; at: string; transcript: string; line?: number }[];
  /** External agents: each start of the process. */
  attempts?: { attempt: number; startedAt: string; endedAt?: string; exitCode: number | null; signal: string | null }[];
}

const num = z.number();

export const agentSpendSchema: z.ZodType<AgentSpend> = lazySchema(() => z.looseObject({ calls: num, tokensIn: num, tokensOut: num, cost: num }));

/** Loose like the other documents: fields a newer launcher adds pass through. */
export const agentRecordSchema: z.ZodType<AgentRecord> = lazySchema(() =>
  z.looseObject({
    kind: z.enum(['external', 'lm']),
    agent: z.string(),
    startedAt: z.string(),
    endedAt: z.string().optional(),
    ending: z.enum(AGENT_ENDINGS).optional(),
    detail: z.string().optional(),
    spend: agentSpendSchema.optional(),
    caps: z.looseObject({ tokens: num.optional(), cost: num.optional(), timeLimitS: num.optional() }).optional(),
    submissions: z.array(z.looseObject({ submission: num, at: z.string(), transcript: z.string(), line: num.optional() })),
    attempts: z.array(z.looseObject({ attempt: num, startedAt: z.string(), endedAt: z.string().optional(), exitCode: num.nullable(), signal: z.string().nullable() })).optional(),
  }),
);
