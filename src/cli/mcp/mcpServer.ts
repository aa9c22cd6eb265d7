/**
 * The MCP stdio server (`policyforge mcp`): submit/status/feedback/finish/restore/report as MCP
 * tools for any MCP client, backed by the workspace's runner through the same protocol client.
 * Tool input schemas are the protocol's own zod schemas.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import packageJson from '../../../package.json';
import { FeedbackParamsSchema, FinishParamsSchema, RestoreParamsSchema, SubmitParamsObject } from '../../protocol/run';
import { RunClientError, type RunnerClient } from '../../runner/client';
import { connectOrStart } from '../../runner/launch';
import { typeErrorWarning } from '../../stats/feedbackText';
import { lastBudgetText, lastBudgetWarning, requestedEpisodes } from '../../stats/reportText';
import { formatReport, formatStatus, formatSummary } from '../commands/format';
import { ProposalError, proposeFor, writeProposal } from '../../runner/practiceProposal';
import { forwardProgress } from './progress';
import { registerArenaTools } from './arenaMcp';
import { isArenaWorkspace } from '../commands/arenaWorkspace';

export function createMcpServer(workspace: string): { server: McpServer; close(): Promise<void> } {
  // Logging, so warnings reach the client as notifications before a submit charges anything.
  const server = new McpServer({ name: 'policyforge', version: packageJson.version }, { capabilities: { logging: {} } });
  let client: RunnerClient | null = null;
  const getClient = async (): Promise<RunnerClient> => {
    if (client?.open) return client;
    client = await connectOrStart(workspace);
    return client;
  };
  const call = async (fn: (c: RunnerClient) => Promise<{ text: string; data: unknown }>): Promise<CallToolResult> => {
    try {
      const { text, data } = await fn(await getClient());
      return { content: [{ type: 'text', text: `${text}\n${JSON.stringify(data, null, 2)}` }] };
    } catch (e) {
      const message = e instanceof RunClientError ? `${e.reason}: ${e.message}` : e instanceof Error ? e.message : String(e);
      return { isError: true, content: [{ type: 'text', text: message }] };
    }
  };
  // An arena run has verbs of its own (no cases; a pool to pin and drop): src/cli/mcp/arenaMcp.ts.
  if (isArenaWorkspace(workspace)) {
    registerArenaTools(server, call);
    return { server, close: async () => { await client?.close(); await server.close(); } };
  }
  server.registerTool(
    'submit',
    {
      description:
        'Run the current policy/ on training cases; each episode is charged to the budget. Give `cases` ("0-7,12" or [0,1]) or `episodes` (next unused cases). Before anything runs it warns (as a log message, repeated at the top of the result) when policy/ has type errors (`strict: true` refuses instead, uncharged) and when this submit spends the last of the budget, which ends the run: to choose the candidates, call `finish` with `candidates` first. Returns the feedback summary (also in feedback/latest.json); the submit that spends the last of the budget also returns the final report. With a progress token it sends progress notifications (episodes done, then the validation and assessment that end the run). This is the only sanctioned way to interact with the environment. With `config` (a training configuration, e.g. from the `propose` tool) it is a practice submit instead: the environment changed as the configuration says, charged to a separate practice budget, feedback marked practice, never selected.',
      inputSchema: SubmitParamsObject.shape,
    },
    (args, extra) => call(async (c) => {
      // Told before the charge, so neither a type error nor the end of the run is a silent cost; a
      // strict submit is refused by the runner instead. The result repeats them for clients that
      // do not show log messages.
      const typeErrors = args.strict ? [] : typeErrorWarning(await c.check(), '`strict: true`');
      // Practice spends its own budget and never ends the run.
      const last = args.config ? null : lastBudgetWarning(requestedEpisodes(args), await c.status(), 'mcp');
      const warnings = [...(typeErrors.length ? [typeErrors.join('\n')] : []), ...(last ? [last] : [])];
      for (const w of warnings) await server.sendLoggingMessage({ level: 'warning', logger: 'policyforge', data: w });
      // Progress covers the episodes and, when this submit ends the run, the validation and assessment it waits for.
      const stop = forwardProgress(c, extra);
      let s: Awaited<ReturnType<typeof c.submit>>;
      let report: Awaited<ReturnType<typeof c.awaitReport>> | undefined;
      try {
        s = await c.submit(args);
        report = s.budget.remaining === 0 ? await c.awaitReport() : undefined;
      } finally {
        stop();
      }
      const history = (await c.status()).history;
      const text = [...warnings.map((w) => `${w}\n`), formatSummary(s, history), report ? `\n${lastBudgetText(report, history)}` : ''].join('');
      return { text, data: report ? { summary: s, report } : s };
    }),
  );
  server.registerTool(
    'propose',
    {
      description:
        'Propose a training configuration that practises the weakest skill of the latest run submission (or `from`), with one sentence why; also written to practice/proposal.json. Pass its `config` to `submit` for a practice submit. Charges nothing.',
      inputSchema: { from: FeedbackParamsSchema.shape.submission.describe('Submission whose skill rates to read; the latest run submission when omitted.') },
    },
    (args) =>
      call(async (c) => {
        try {
          const { proposal, from } = await proposeFor(c, async () => (await import('../../envs')).createRegistry(), args.from);
          const file = writeProposal(workspace, proposal);
          return { text: `${proposal.reason}\nsubmit with config = the object below (also in ${file})`, data: { from, config: proposal.config, skill: proposal.skill } };
        } catch (e) {
          if (e instanceof ProposalError) return { text: e.message, data: null };
          throw e;
        }
      }),
  );
  server.registerTool('status', { description: 'Budget used/remaining, phase, and the submissions so far.' }, () =>
    call(async (c) => {
      const s = await c.status();
      return { text: formatStatus(s), data: s };
    }),
  );
  server.registerTool('feedback', { description: 'The feedback summary of a submission (latest by default).', inputSchema: FeedbackParamsSchema.shape }, (args) =>
    call(async (c) => {
      const s = await c.feedback(args.submission);
      return { text: formatSummary(s, (await c.status()).history), data: s };
    }),
  );
  server.registerTool(
    'finish',
    {
      description:
        'End the run: validate candidates on hidden cases, assess the selected one on held-out cases, and return the report. With a progress token it sends progress notifications (candidates and episodes done).',
      inputSchema: FinishParamsSchema.shape,
    },
    (args, extra) =>
      call(async (c) => {
        const stop = forwardProgress(c, extra);
        try {
          const r = await c.finish(args.candidates);
          return { text: formatReport(r, (await c.status()).history), data: r };
        } finally {
          stop();
        }
      }),
  );
  server.registerTool('restore', { description: "Copy a submission's checkpoint back into policy/.", inputSchema: RestoreParamsSchema.shape }, (args) =>
    call(async (c) => {
      const r = await c.restore(args.submission);
      return { text: `restored submission ${r.submission} into policy/`, data: r };
    }),
  );
  server.registerTool('report', { description: 'The final report once the run is complete (null before).' }, () =>
    call(async (c) => {
      const r = await c.report();
      return { text: r ? formatReport(r, (await c.status()).history) : 'the run is not complete yet', data: r };
    }),
  );
  return {
    server,
    async close() {
      await client?.close();
      await server.close();
    },
  };
}

/** Serves MCP on stdin/stdout until the client disconnects. */
export async function serveMcpStdio(workspace: string): Promise<void> {
  const { server, close } = createMcpServer(workspace);
  const transport = new StdioServerTransport();
  await server.connect(transport);
  await new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await close();
}
