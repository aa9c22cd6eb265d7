/**
 * AGENTS.md for an arena run (a two-sided game): the policy plays one side, the budget counts
 * games, and a submission goes through the screen and the deep evaluation against an opponent
 * pool that grows with promoted champions. The game's own rules and observation layout come
 * from its definition's guide.
 */
import { arenaGame } from '../envs/arena';
import type { EnvDefinition } from '../envs/core/definition';
import { ArenaOptionsSchema } from '../protocol/arena';
import { CLOCK_TICK_MS } from '../sandbox';
import type { RunConfig } from '../runner/config';
import { limitsSection } from './limitsSection';

export function arenaAgentsMd(def: EnvDefinition, config: RunConfig, cli = 'policyforge'): string {
  const a = config.arena ?? ArenaOptionsSchema.parse({});
  const game = arenaGame(def.id, gameParams(config.params));
  const opponents = game.opponents.map((o) => `\`${o}\``).join(', ');
  const [first, second] = game.sides;
  const bar = (0.5 + a.promotionMargin).toFixed(2);
  const screenCost = game.opponents.length * a.screenGames;
  return `# PolicyForge task: ${def.id} (arena run)

${def.description}

Your job: edit \`policy/policy.ts\` (and helper modules under \`policy/\`) so that your side **wins
games**, above all against opponents you will never see. This is an **arena run**: the budget is
**${config.budget} games**, and every submission plays an opponent pool that starts with the
built-in opponents (${opponents}, weakest first) and grows with your own promoted champions.
The run is judged after it ends, by the selected submission's win rate against **hidden opponents**
that never play during the run.

## Policy contract
- \`policy/policy.ts\` exports \`class Policy\` with \`constructor(ctx: PolicyContext)\`, an optional
  \`reset(observation, info)\` and \`act(observation, info): Action\`. Types are in \`policy/env.d.ts\`
  (generated; do not edit).
- **Your policy controls one side.** \`ctx.side\` is the side it plays in this game (\`${first}\` or
  \`${second}\`; it alternates from game to game, so write a policy that plays both) and \`ctx.ownAgents\`
  lists its agents. The observation is a record *agent id → that agent's observation* for your own
  agents, and \`act\` returns a record *agent id → action* with an entry for **every** id in
  \`ctx.ownAgents\`. In a turn-based game \`act\` is called only when it is your move.
- \`ctx.params\` holds the game's parameters and your side (\`policy/env.d.ts\` declares exactly these).
  Which opponent you are playing is not in it, by design: a policy must play well against anyone,
  including the hidden opponents of the assessment, so it cannot be told which one it faces.
- A policy may import only relative paths to its own \`.ts\`/\`.json\` files under \`policy/\`. \`Math.random\`
  is seeded per game; \`Date.now()\` and \`performance.now()\` are a virtual clock (${CLOCK_TICK_MS} ms per read).
- Each game gets a fresh policy instance. A side that throws, times out or returns an invalid action
  (no clipping) **loses that game**; the feedback says which side failed and why.
${def.guide ? `\n${def.guide}\n` : ''}
${limitsSection(config, 'game')}

## How an arena run spends its budget
- **The budget counts games.** Every game a submission plays is charged, in both stages. A refused
  submit (the policy does not build, \`--strict\` with type errors, fewer games left than the screen
  needs) costs nothing.
- **Screen.** A new submission first plays ${a.screenGames} games against every opponent in the pool
  (${screenCost} games with the ${game.opponents.length} built-ins; more once champions join). It passes when its
  **points rate** (win 1, draw ½, loss 0, divided by games) is at least **${a.screenPass}**. If it does not
  pass, it stops there: \`stage\` is \`"screen"\` and \`reason\` gives the rate and the pass mark.
- **Deep evaluation.** A submission that passes plays ${a.deepGames} more games, spread over the pool in
  proportion to the weights. If fewer games are left, it stops after the screen and \`reason\` says so.
- **Promotion.** A deep points rate of at least **${bar}** (½ + ${a.promotionMargin}) promotes the submission
  into the pool as \`champion-N\`: from then on every submission also plays it. The pool holds at most
  ${a.maxPool} opponents; a promotion into a full pool retires its oldest unpinned opponent.
- **Weakness pressure.** Every opponent weighs 1, except the one submissions have the lowest points
  rate against, which weighs 2 and so gets twice the deep games. \`${cli} status\` shows the weights.
- **Pin and drop.** \`${cli} pool pin ID\` keeps an opponent (never retired, cannot be dropped);
  \`${cli} pool drop ID\` removes one (not a pinned one, not the last).
- **Ratings.** Every submission and opponent has an OpenSkill rating, updated after each charged game
  (\`status\`, \`feedback/arena/ratings.json\`).
- Seats alternate between games and every game has its own seed, so a result over several games
  covers both sides.

## How the run ends
When the budget is spent, or when you run \`${cli} finish\`, the run ends:
1. **Validation**: every submission that reached the deep evaluation (every submission, if none did)
   plays the final pool again, ${a.validationGames} games per opponent on fresh hidden seeds; the best
   points rate is selected (the later submission on ties). A submission the screen stopped is not a
   candidate.
2. **Assessment**: the selected submission plays ${a.assessmentGames} games per opponent against **hidden
   opponents never seen during the run**, and against the final pool. \`.policyforge/report.json\` holds
   both win rates (\`assessment.hidden\`, \`assessment.finalPool\`). The hidden figure is the one that
   counts: a policy tuned to the quirks of one pool opponent does not carry over.

## Commands (run them from this folder)
| command | what it does |
|---|---|
| \`${cli} submit [--note TEXT] [--strict]\` | play the current \`policy/\` against the pool: screen, then deep evaluation if it passes; prints the per-opponent feedback |
| \`${cli} feedback [N]\` | the feedback of submission N (default: the latest) |
| \`${cli} status\` | games used and left, the pool with kinds, weights and pins, promotions, ratings, every submission's stage |
| \`${cli} pool\`, \`${cli} pool pin ID\`, \`pool unpin ID\`, \`pool drop ID\` | the opponent pool, and your say over it |
| \`${cli} finish\` | end the run now: validation, then assessment |
| \`${cli} report\` | the final report once the run is complete |

Add \`--json\` to any command for machine-readable output. Exit codes: 0 ok, 1 the request was
refused or failed (budget spent, a pinned opponent dropped, the policy does not build), 2 bad
arguments, 3 the runner could not be reached.

## Feedback files (written by the runner; read-only for you)
- \`feedback/submit-NNNN/summary.json\` (also \`feedback/latest.json\`): \`stage\` and \`reason\` (how far
  the submission got and why it stopped), \`screen\` and \`deep\` (points and win rate, and per opponent
  W, D, L, points, errors), \`promoted\`, \`weights\`, the budget, and \`games\`: every game with its
  opponent, the side you played, seed, outcome, score (\`own\`, \`opponent\`), steps, the error if a side
  failed, and \`trajectory\`, the path of its match file.
- \`feedback/submit-NNNN/games/game-NNNNN.jsonl\`: one match per file. The first line is a header
  (\`sides\` in seat order, \`submissionSide\`, \`opponent\`, \`agents\` — the order of each step's agent rows —
  and for capture the flag \`field\` and \`flagHomes\` in metres). Then one line per step:
  capture the flag \`{ t, agents: [[x, y, heading, tagged, carrying], …], flags: { team: [x, y, carrier] },
  captures, events }\` (metres and radians in the true field frame, not your mirrored view; events are
  grabs, captures, tags, returns home); Connect Four \`{ t, mover, column }\`. The last line is the
  outcome (\`outcome\` W/D/L for you, \`scores\` per side, \`error\` if a side failed).
- \`feedback/arena/pool.json\`: the pool (kinds, pins, weights, win rates) and its events (promotions,
  retirements, pins, drops); \`feedback/arena/ratings.json\`: the ratings and their history.
- Start with the feedback text's **games worth replaying** (your worst loss against each opponent, and
  every game a side failed): open those match files to see what went wrong.

## Rules
- \`${cli} submit\` is the **only** sanctioned way to play. Do not run the game yourself, do not read or
  write \`.policyforge/\`, and do not edit \`feedback/\`.
- Hidden seeds and hidden opponents are never visible; do not try to find them.
`;
}

/** The game's own parameters (side and opponent are set per game by the runner). */
function gameParams(params: Readonly<Record<string, number | boolean | string>>): Record<string, unknown> {
  const { side: _side, opponent: _opponent, ...rest } = params;
  return rest;
}
