/**
 * The LM agent's spend: tokens in and out per call, cost from configurable prices, and the hard
 * caps. A call is made only if it fits: its reply is bounded (`max_tokens`) so that, with the
 * prompt's estimated size, it cannot take the spend past a token or cost cap.
 */
import type { AgentEnding, AgentSpend } from '../agentRecord';

export interface Prices {
  /** Cost per million prompt tokens. */
  inPerMTok: number;
  /** Cost per million reply tokens. */
  outPerMTok: number;
}

export interface Caps {
  /** Total tokens, in plus out. */
  tokens?: number;
  cost?: number;
  timeLimitMs?: number;
  turns?: number;
}

/** A reply shorter than this is not worth asking for: the cap is as good as reached. */
export const MIN_REPLY_TOKENS = 256;

export class Ledger {
  readonly spend: AgentSpend = { calls: 0, tokensIn: 0, tokensOut: 0, cost: 0 };
  private readonly startedAt = Date.now();

  constructor(
    readonly prices: Prices,
    readonly caps: Caps,
  ) {}

  costOf(tokensIn: number, tokensOut: number): number {
    return (tokensIn * this.prices.inPerMTok + tokensOut * this.prices.outPerMTok) / 1e6;
  }

  record(tokensIn: number, tokensOut: number): void {
    this.spend.calls++;
    this.spend.tokensIn += tokensIn;
    this.spend.tokensOut += tokensOut;
    this.spend.cost += this.costOf(tokensIn, tokensOut);
  }

  msLeft(): number {
    return this.caps.timeLimitMs === undefined ? Infinity : this.caps.timeLimitMs - (Date.now() - this.startedAt);
  }

  /** Whether the next call may be made, and the bound on its reply. */
  nextCall(turn: number, promptTokens: number, maxReply: number): { ok: true; maxOutputTokens: number } | { ok: false; ending: AgentEnding; detail: string } {
    const { caps, spend } = this;
    if (caps.turns !== undefined && turn > caps.turns) return { ok: false, ending: 'turn_limit', detail: `${caps.turns} turns` };
    if (this.msLeft() <= 0) return { ok: false, ending: 'time_limit', detail: `${Math.round((caps.timeLimitMs ?? 0) / 1000)} s` };
    let bound = maxReply;
    if (caps.tokens !== undefined) bound = Math.min(bound, caps.tokens - spend.tokensIn - spend.tokensOut - promptTokens);
    if (bound < MIN_REPLY_TOKENS && caps.tokens !== undefined && bound < maxReply) return { ok: false, ending: 'token_cap', detail: `${spend.tokensIn + spend.tokensOut} of ${caps.tokens} tokens used; the next prompt is about ${promptTokens}` };
    if (caps.cost !== undefined) {
      const left = caps.cost - spend.cost - this.costOf(promptTokens, 0);
      const affordable = this.prices.outPerMTok > 0 ? Math.floor((left * 1e6) / this.prices.outPerMTok) : left >= 0 ? bound : -1;
      if (Math.min(bound, affordable) < MIN_REPLY_TOKENS && affordable < bound) return { ok: false, ending: 'cost_cap', detail: `${spend.cost.toFixed(4)} of ${caps.cost} spent` };
      bound = Math.min(bound, affordable);
    }
    return { ok: true, maxOutputTokens: bound };
  }
}
