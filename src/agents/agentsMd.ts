/** AGENTS.md: the task and the rules a coding agent reads in a fresh workspace. */
import type { EnvDefinition } from '../envs/core/definition';
import type { RunConfig } from '../runner/config';

/** `cli`: the command line that reaches the CLI from this workspace (`policyforgeCommand`). */
export function agentsMd(def: EnvDefinition, config: RunConfig, cli = 'policyforge'): string {
  const params = Object.entries(config.params);
  return `# PolicyForge task: ${def.id}

${def.description}

Your job: edit \`policy/policy.ts\` (and helper modules under \`policy/\`) so the policy earns the
highest return on **hidden** episodes of this environment. You have a fixed budget of
**${config.budget} training episodes**. Use them to learn how the environment behaves and how your
policy fares; the final score comes from episodes you never see.

## Policy contract
- \`policy/policy.ts\` exports \`class Policy\` with \`constructor(ctx: PolicyContext)\`, an optional
  \`reset(observation, info)\` and \`act(observation, info): Action\`.
- Types of \`Observation\`, \`Action\`, \`Info\` and \`PolicyContext\` are in \`policy/env.d.ts\` (generated; do not edit).
- A policy may import only relative paths to its own \`.ts\`/\`.json\` files under \`policy/\`: no Node
  built-ins, no packages, no file or network access. \`Math.random\` is seeded per episode.
- Each episode gets a fresh policy instance; a thrown exception, a timeout (${config.actTimeoutMs} ms per
  \`act\`, ${config.episodeTimeoutMs} ms per episode) or an invalid action ends that episode as a failure.
- Environment: ${def.maxEpisodeSteps === null ? 'the environment ends episodes by its own limit (a step budget such as MiniGrid\'s `max_steps`, or a duration), described with its parameters' : `at most ${def.maxEpisodeSteps} steps per episode`}, reward range [${def.rewardRange.join(', ')}]${
    params.length ? `, parameters ${params.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ')}` : ''
  }.
${def.guide ? `\n${def.guide}\n` : ''}
## Budget rules
- Training cases are numbered 0-${config.poolSize - 1}. Each case index is one fixed hidden episode:
  submitting the same index again replays the same episode (a matched comparison) and is charged again.
- Every requested episode costs 1 from the budget, failures included. Requests that are rejected
  (bad range, over budget, policy does not build) cost nothing.
- ${config.minEpisodesPerSubmit}-${config.maxEpisodesPerSubmit} episodes per submit, at most ${config.maxSubmissions} submissions.
- When the budget reaches 0, or when you run \`${cli} finish\`, the run ends: every submission
  whose episodes were all \`ok\` is scored on ${config.validationCases} hidden validation cases, the best one (later
  wins ties) is scored on ${config.heldOutCases} held-out cases, and the result goes to \`.policyforge/report.json\`.

## Commands (run them from this folder)
| command | what it does |
|---|---|
| \`${cli} submit --cases 0-7\` | run the current \`policy/\` on cases 0..7 (also \`--cases 0,3,5\` or \`--episodes 8\` for the next unused cases) |
| \`${cli} status\` | budget used/remaining, submissions so far, best train mean |
| \`${cli} feedback [N]\` | the summary of submission N (default: the latest) |
| \`${cli} finish [--candidates 3,5]\` | end the run now (optionally validate only the listed submissions) |
| \`${cli} report\` | the final report once the run is complete |
| \`${cli} restore N\` | copy submission N's checkpoint back into \`policy/\` |

Add \`--json\` to any command for machine-readable output. Exit codes: 0 ok, 1 the request was
rejected or failed, 2 bad arguments, 3 the runner could not be reached.

## Feedback files (written by the runner; read-only for you)
- \`feedback/latest.json\` and \`feedback/submit-NNNN/summary.json\`: per-episode status, return,
  length, errors with the policy source line, return statistics, the budget.
- \`feedback/submit-NNNN/episodes/case-III.jsonl\`: the trajectory (a header line, then one line per step:
  observation, action, reward). \`"evicted": true\` in the summary's \`files\` says old
  trajectories were removed to stay under the size cap.
- \`feedback/submit-NNNN/logs/case-III.txt\`: what the policy printed with \`console.log\`.

## Agents launched on this run
- \`${cli} run --agent-cmd "COMMAND"\` (or \`--agent claude-code|codex|gemini|aider\`) starts a coding
  agent in this folder with this file as its task on stdin, \`policyforge\` on its PATH and the
  \`policyforge\` MCP server (the commands above as tools) in \`.mcp.json\`, \`.vscode/mcp.json\`,
  \`.codex/config.toml\` and \`.gemini/settings.json\`. The run ends when the agent exits, the budget
  is spent or the time limit is reached; a crashed agent is started again.
- \`${cli} agent --base-url URL --model NAME\` (in VS Code: **PolicyForge: Start LM Agent**) runs
  the built-in LM agent instead, with caps on tokens, cost and time.

## Rules
- \`${cli} submit\` is the **only** sanctioned way to interact with the environment. Do not
  run the environment yourself, do not read or write \`.policyforge/\`, and do not edit \`feedback/\`.
- \`${cli} eval\` (free episodes, no budget) refuses this run's environment inside this folder
  until the run has ended: every episode you learn from counts against the budget.
- Hidden validation and held-out episodes are never visible; do not try to find them.
`;
}
