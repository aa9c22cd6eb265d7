/**
 * The MCP tools of an arena run (`policyforge mcp` in a workspace whose run is on a two-sided
 * game): submit, feedback, status, pool, pin, unpin, drop, finish and report, each returning the
 * same text the CLI prints (src/stats/arenaText.ts) followed by the protocol's JSON document.
 * Tool input schemas are the protocol's own (src/protocol/arena.ts).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { ArenaDropParamsSchema, ArenaFeedbackParamsSchema, ArenaSubmitParamsSchema, type ArenaProgressNotificationSchema } from '../../protocol/arena';
import type { RunnerClient } from '../../runner/client';
import { arenaProgressText, formatArenaReport, formatArenaStatus, formatArenaSummary, formatPoolChange } from '../../stats/arenaText';
import { typeErrorWarning } from '../../stats/feedbackText';
import { awaitArenaReport } from '../commands/arenaSubmit';
import type { ProgressContext } from './progress';

type ArenaProgress = z.output<typeof ArenaProgressNotificationSchema>;

/** The MCP server's tool runner: the runner's client in, the text and the JSON document out, errors as tool errors. */
export type ToolCall = (fn: (c: RunnerClient) => Promise<{ text: string; data: unknown }>) => Promise<CallToolResult>;

/** Registers the arena tools on `server`, each run through the server's own `call`. */
export function registerArenaTools(server: McpServer, call: ToolCall): void {
  server.registerTool(
    'submit',
    {
      description:
        'Arena run: play the current policy/ against the opponent pool. A screen of a few games against every opponent, then, if its points rate passes, a deep evaluation spread over the pool by the weights; a deep points rate above the promotion bar promotes it into the pool as a champion. Every game is charged to the budget (counted in games). Warns first (log message, repeated in the result) when policy/ has type errors (`strict: true` refuses instead, uncharged). Returns the per-opponent feedback (W/D/L, points, score, stage reached and why, errors, games worth replaying with their match files).',
      inputSchema: ArenaSubmitParamsSchema.shape,
    },
    (args, extra) =>
      call(async (c) => {
        const warnings = args.strict ? [] : typeErrorWarning(await c.check(), '`strict: true`');
        if (warnings.length) await server.sendLoggingMessage({ level: 'warning', logger: 'policyforge', data: warnings.join('\n') });
        const stop = forwardArenaProgress(c, extra);
        try {
          const s = await c.request('arena.submit', args);
          const report = s.budget.remaining === 0 ? await awaitArenaReport(c) : undefined;
          const text = [...warnings.map((w) => `${w}\n`), formatArenaSummary(s), report ? `\nthe budget is spent, so the run has finished:\n${formatArenaReport(report)}` : ''].join('');
          return { text, data: report ? { summary: s, report } : s };
        } finally {
          stop();
        }
      }),
  );
  server.registerTool('feedback', { description: 'Arena run: the feedback of a submission (latest by default): per-opponent results of its screen and deep stages.', inputSchema: ArenaFeedbackParamsSchema.shape }, (args) =>
    call(async (c) => {
      const s = await c.request('arena.feedback', args.submission === undefined ? {} : { submission: args.submission });
      return { text: formatArenaSummary(s), data: s };
    }),
  );
  server.registerTool('status', { description: 'Arena run: games used and left, the opponent pool with kinds, weights (weakness pressure) and pins, promotions, ratings and every submission\'s stage.' }, () =>
    call(async (c) => {
      const s = await c.request('arena.status', {});
      return { text: formatArenaStatus(s), data: s };
    }),
  );
  const poolTool = (name: 'pin' | 'unpin' | 'drop', description: string) =>
    server.registerTool(name, { description, inputSchema: ArenaDropParamsSchema.shape }, (args) =>
      call(async (c) => {
        const r = name === 'drop' ? await c.request('arena.drop', { opponent: args.opponent }) : await c.request('arena.pin', { opponent: args.opponent, pinned: name === 'pin' });
        return { text: formatPoolChange(name === 'drop' ? 'dropped' : name === 'pin' ? 'pinned' : 'unpinned', args.opponent, r), data: r };
      }),
    );
  poolTool('pin', 'Arena run: pin a pool opponent (e.g. "planner", "champion-2"): it is never retired and cannot be dropped. Charges nothing.');
  poolTool('unpin', 'Arena run: undo a pin. Charges nothing.');
  poolTool('drop', 'Arena run: remove an opponent from the pool (not a pinned one, not the last one); later submissions no longer play it. Charges nothing.');
  server.registerTool(
    'finish',
    { description: 'Arena run: end the run now. Every submission plays the final pool on fresh hidden seeds (validation), the best is selected and assessed against hidden opponents never seen in the run and against the final pool; returns the report with both figures.' },
    (extra) =>
      call(async (c) => {
        const stop = forwardArenaProgress(c, extra);
        try {
          const r = await c.request('arena.finish', {});
          return { text: formatArenaReport(r), data: r };
        } finally {
          stop();
        }
      }),
  );
  server.registerTool('report', { description: 'Arena run: the final report once the run is complete (null before).' }, () =>
    call(async (c) => {
      const r = await c.request('arena.report', {});
      return { text: r ? formatArenaReport(r) : 'the arena run is not complete yet', data: r };
    }),
  );
}

/** `arena.progress` as MCP progress notifications, in games, when the client sent a progress token. */
function forwardArenaProgress(client: RunnerClient, extra: ProgressContext): () => void {
  const token = extra._meta?.progressToken;
  if (token === undefined) return () => undefined;
  let before = 0, stage = '', lastDone = 0;
  const onProgress = (p: ArenaProgress): void => {
    const key = `${p.phase}/${p.submission}`;
    if (key !== stage) {
      before += lastDone;
      stage = key;
    }
    lastDone = p.done;
    void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: before + p.done, message: arenaProgressText(p) } }).catch(() => undefined);
  };
  client.on('arena.progress', onProgress);
  return () => client.off('arena.progress', onProgress);
}
