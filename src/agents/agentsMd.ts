/** AGENTS.md: the task and the rules a coding agent reads in a fresh workspace. */
import type { EnvDefinition } from '../envs/core/definition';
import { EpisodeLimits, type StepLimitRange } from '../envs/core/env';
import { failureReturnOf } from '../envs/core/failureReturn';
import { resolveParams } from '../envs/core/params';
import { MINIGRID_DELTA_FORMAT } from '../protocol/minigridTrajectory';
import type { RunConfig } from '../runner/config';
import { comparableEpisodes } from '../stats/bestTrain';
import { CLOCK_ORIGIN_MS, CLOCK_TICK_MS } from '../sandbox';
import { arenaAgentsMd } from './arenaAgentsMd';
import { limitsSection } from './limitsSection';
import { practiceSection } from './practiceSection';

/** `cli`: the command line that reaches the CLI from this workspace (`policyforgeCommand`). */
export function agentsMd(def: EnvDefinition, config: RunConfig, cli = 'policyforge'): string {
  // A run on a two-sided game is an arena run: games, an opponent pool, its own verbs.
  if (config.arena) return arenaAgentsMd(def, config, cli);
  const params = Object.entries(config.params);
  let failure: string;
  try {
    // The declared value may read any parameter: give it the defaults too. Rounded for reading.
    failure = String(+failureReturnOf(def, resolveParams(def.id, def.params, config.params)).toFixed(3));
  } catch {
    failure = 'its declared minimum'; // a plugin without a finite failure return: the runner says so on submit
  }
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
  built-ins, no packages, no file or network access, no timers. \`Math.random\` is seeded per episode.
- Each episode gets a fresh policy instance. A thrown exception, a timeout, too much memory or an
  invalid action (no clipping) ends that episode as a failure.
- Environment: ${def.maxEpisodeSteps === null ? ownStepLimit(def, config) : `at most ${def.maxEpisodeSteps} steps per episode`}, reward range [${def.rewardRange.join(', ')}]${
    params.length ? `, parameters ${params.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ')}` : ''
  }. \`ctx.maxEpisodeSteps\` is the most steps the episode can take (MiniGrid and BabyAI: the level's
  \`max_steps\`, which the reward formula divides by; null only where nothing truncates episodes).
- \`console.log\` (also \`info\`, \`debug\`, \`warn\`, \`error\`) writes to the episode's log file.
- Time inside the policy is virtual: \`Date.now()\`, \`new Date()\` and \`performance.now()\` start at
  the same instant every episode (${new Date(CLOCK_ORIGIN_MS).toISOString()}; \`performance.now()\` at 0) and
  advance ${CLOCK_TICK_MS} ms per read, so an episode replays identically whatever the machine's load. A loop
  such as \`while (performance.now() - t0 < 5)\` runs a fixed number of rounds (${Math.round(5 / CLOCK_TICK_MS)}), not 5 real ms: the
  limits below are on real time, so keep every call well inside them.

${limitsSection(config)}
## Failed episodes
A failed episode (exception, timeout, invalid action, memory) scores this environment's failure
return, **${failure}** (the worst return an episode can get within its limits), or its partial
return when that is lower, in every mean: the feedback, \`status\`'s best train mean, validation
and assessment. \`summary.json\` keeps the sum of rewards it had reached as \`partialReturn\`.
A \`runner_fault\` (the environment's or the runner's failure) is never charged to the budget.
\`status\`'s best train mean compares like with like: only submissions of at least
${comparableEpisodes(config)} episodes take part (\`status\` states the number).
${def.guide ? `\n${def.guide}\n` : ''}
## Budget rules
- Training cases are numbered 0-${config.poolSize - 1}. Each case index is one fixed hidden episode:
  submitting the same index again replays the same episode (a matched comparison) and is charged again.
- Every requested episode costs 1 from the budget, failures included. Requests that are rejected
  (bad range, over budget, policy does not build) cost nothing.
- ${config.minEpisodesPerSubmit}-${config.maxEpisodesPerSubmit} episodes per submit, at most ${config.maxSubmissions} submissions.
- When the budget reaches 0, or when you run \`${cli} finish\`, the run ends: the candidate submissions
  (every submission with episodes, or those \`--candidates\` lists) are scored on ${config.validationCases} hidden
  validation cases and ranked by validation mean (failures scored as above), then by fewer failed
  episodes, then the later submission; the first is scored on ${config.heldOutCases} held-out cases, and the result
  goes to \`.policyforge/report.json\`. A failure lowers a submission's mean, it does not disqualify it:
  a run with any submission always selects one. Validation runs every candidate at once; \`finish\`
  (and the submit that spends the last of the budget) prints its progress (candidates and episodes
  done), and \`status\` and \`report\` say what it is doing.
- The submit that would spend the last of the budget says so before it runs, since it ends the run
  with the candidates the rule above picks; at a terminal it asks first (\`--yes\` answers for you).
  To choose the candidates yourself, run \`${cli} finish --candidates …\` instead and leave those
  episodes unspent.

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

${practiceSection(def, config, cli)}## Feedback files (written by the runner; read-only for you)
- \`feedback/latest.json\` and \`feedback/submit-NNNN/summary.json\`: per-episode status, return,
  length, errors with the policy source line, return statistics, the budget. \`skills\` gives each
  skill this environment measures (reached the goal, picked up the key, time upright…) as a rate
  with its standard error; each episode's \`skills\` says which it achieved (null: not possible in
  that episode). The feedback text names the weakest skills first: work on those.
- \`feedback/submit-NNNN/episodes/case-III.jsonl\`: the trajectory, one JSON object per line.
  \`"evicted": true\` in the summary's \`files\` says old trajectories were removed to stay under the
  size cap. ${trajectoryFormat(def)}
- \`feedback/submit-NNNN/logs/case-III.txt\`: what the policy printed with \`console.log\`, then the
  error that ended the episode, if any.

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

/**
 * The step limit of an environment that truncates episodes itself, as an instance made with the
 * run's parameters reports it (`stepLimitRange`, what `envs` prints): one number, or for a BabyAI
 * level deriving `max_steps` from its instruction, the range and its rule.
 */
function ownStepLimit(def: EnvDefinition, config: RunConfig): string {
  let range: StepLimitRange | null;
  try {
    range = new EpisodeLimits(def.create(resolveParams(def.id, def.params, config.params)), def.maxEpisodeSteps).stepLimitRange();
  } catch {
    // A plugin whose environment cannot be made here: the run reports that itself on the first submit.
    return 'the environment ends episodes by its own limit, described with its parameters';
  }
  if (range === null) return 'no step limit (an episode ends when it terminates or at the episode time limit)';
  const source = def.family.startsWith('minigrid') ? "MiniGrid's `max_steps` for this level" : "the environment's own limit";
  if (range.min === range.max) return `at most ${range.max} steps per episode (${source} with the run's parameters)`;
  return `${range.min}–${range.max} steps per episode depending on the episode (${range.rule ?? source}; \`ctx.maxEpisodeSteps\` gives the episode's own)`;
}

/** The trajectory file's layout for this environment: plain steps, or MiniGrid's changes per step. */
function trajectoryFormat(def: EnvDefinition): string {
  const header = `The first line is a header: \`caseIndex\`, \`status\`, \`return\`, \`length\`, \`terminated\`,
  \`truncated\`, \`trajectoryTruncated\` (true when only the first steps were kept)`;
  // A family that stores its own layout describes it in its section of this file.
  if (def.guide?.includes('## Trajectory files')) return `${header}, \`format\` and \`initialSnapshot\`; the step lines are described under "Trajectory files" above.`;
  if (!def.family.startsWith('minigrid')) {
    return `${header}, \`initialSnapshot\` (the world after
  reset, for the replay view). Then one line per step: \`observation\` (as \`act\` saw it; typed arrays as
  number arrays, non-finite numbers as \`"Infinity"\`, \`"-Infinity"\`, \`"NaN"\`), \`action\`, \`reward\`, \`terminated\`, \`truncated\`,
  \`info\` when there is one, and \`snapshot\` (the world after the step).`;
  }
  return `${header}, \`"format": "${MINIGRID_DELTA_FORMAT}"\` and
  \`initialSnapshot\`: the world after reset, \`{ width, height, grid, agent: [x, y, dir], carrying, mission,
  maxSteps, view, … }\`. \`grid\` is a string of digits, 3 per cell (type, color, state as in
  \`policy/minigrid.ts\`), **column by column**: cell (x, y) starts at index (x × height + y) × 3, so do not
  read it row by row. \`view\` is the 7×7 view's visibility as 7 numbers, one per view row j = 0..6
  (far to near; 6 is the agent's row), bit i set when view column i (left to right) is seen. Then
  one line per step, holding what the step changed: \`action\`, \`reward\`, \`terminated\` / \`truncated\` only
  when true, \`info\` only when it differs from the step before, \`agent\` [x, y, dir] after the step
  (always), and only when they changed: \`cells\` [[x, y, type, color, state], …], \`carrying\` (null once
  dropped) and \`view\`. The observation is not stored: it is the view of the world before the step,
  \`image[(i * 7 + j) * 3 + k]\` for view column i and row j (unseen cells 0 0 0), as \`act\` receives it.`;
}
