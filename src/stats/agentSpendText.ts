/**
 * How an agent's record reads (src/protocol/agent.ts): its spend and its ending, in the same words
 * in `status`, the report, the status bar and the dashboard.
 */
import type { AgentEnding, AgentRecord, AgentSpend } from '../protocol/agent';

export const ENDING_TEXT: Record<AgentEnding, string> = {
  agent_exited: 'the agent exited with budget left',
  agent_finished: 'the agent finished the run',
  budget_spent: 'the budget was spent',
  time_limit: 'the time limit was reached',
  retries_exhausted: 'the agent kept failing and every retry was used',
  token_cap: 'the token cap was reached',
  cost_cap: 'the cost cap was reached',
  turn_limit: 'the turn limit was reached',
  cancelled: 'it was cancelled',
  model_error: 'the model endpoint failed',
};

/** A token count: "950", "30.1k". */
export function tokenCount(n: number): string {
  return n >= 10_000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}

/** "12 calls, 30.1k tokens in / 4.2k out, cost 0.0123" — the same words in status, report and the editor. */
export function spendText(spend: AgentSpend, caps?: AgentRecord['caps']): string {
  const tokenCap = caps?.tokens ? ` of ${tokenCount(caps.tokens)}` : '';
  const costCap = caps?.cost ? ` of ${caps.cost}` : '';
  return `${spend.calls} call${spend.calls === 1 ? '' : 's'}, ${tokenCount(spend.tokensIn)} tokens in / ${tokenCount(spend.tokensOut)} out${tokenCap}, cost ${formatCost(spend.cost)}${costCap}`;
}

export function formatCost(cost: number): string {
  return cost === 0 ? '0' : cost < 0.01 ? cost.toPrecision(2) : cost.toFixed(cost < 10 ? 3 : 2);
}
