/**
 * The agent PolicyForge launched on the run, on the dashboard: tokens in and out and the cost so
 * far against its caps, and how it ended. The words are the status bar's and `status`'s
 * (src/stats/agentSpendText.ts).
 */
import type { AgentRecord } from '../../src/protocol/agent';
import { ENDING_TEXT, formatCost, spendText, tokenCount } from '../../src/stats/agentSpendText';
import { h, hx } from '../shared/dom';

/** The stat card, or null when no agent was launched on this run. */
export function agentSpendStat(agent: AgentRecord | null | undefined): HTMLElement | null {
  if (!agent) return null;
  const who = `${agent.kind === 'lm' ? 'LM agent' : 'Agent'} ${agent.agent}`;
  const state = agent.ending ? `ended: ${ENDING_TEXT[agent.ending]}` : 'running';
  const spend = agent.spend;
  const caps = agent.caps ?? {};
  const value = spend ? `${formatCost(spend.cost)}${caps.cost !== undefined ? ` of ${caps.cost}` : ''}` : '—';
  const tokens = spend ? spend.tokensIn + spend.tokensOut : 0;
  const detail = spend ? `${spendText(spend, caps)} · ${who}, ${state}` : `${who}, ${state} (no model calls recorded)`;
  const bars: HTMLElement[] = [];
  if (spend && caps.tokens) bars.push(hx('vscode-progress-bar', { 'aria-label': `Tokens used: ${tokenCount(tokens)} of ${tokenCount(caps.tokens)}`, max: caps.tokens, value: Math.min(tokens, caps.tokens), 'data-cap': 'tokens' }));
  if (spend && caps.cost) bars.push(hx('vscode-progress-bar', { 'aria-label': `Cost so far: ${formatCost(spend.cost)} of ${caps.cost}`, max: caps.cost, value: Math.min(spend.cost, caps.cost), 'data-cap': 'cost' }));
  const timeCap = caps.timeLimitS !== undefined ? h('div', { class: 'detail' }, `time limit ${caps.timeLimitS} s`) : null;
  return h('div', { class: 'stat', 'data-stat': 'agent', role: 'group', 'aria-label': `Agent spend: ${value}. ${detail}` },
    h('div', { class: 'label' }, 'Agent spend'), h('div', { class: 'value' }, value), h('div', { class: 'detail' }, detail), timeCap, ...bars);
}
