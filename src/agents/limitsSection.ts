/** The limits table of AGENTS.md, one home for single-agent and arena runs. */
import * as os from 'node:os';
import type { RunConfig } from '../runner/config';
import { DEFAULT_BUNDLE_LIMITS, DEFAULT_HEAP_MB, DEFAULT_RSS_HEADROOM_MB } from '../sandbox';

/**
 * The time, memory and size limits table. An arena game is one episode of the policy's side
 * (`unit` 'game'), whose match file is kept whole, so the trajectory row is left out there.
 */
export function limitsSection(config: RunConfig, unit: 'episode' | 'game' = 'episode'): string {
  const u = unit;
  return `## Limits
| what | limit |
|---|---|
| loading the policy's modules (their top-level code) | ${config.actTimeoutMs} ms |
| \`new Policy(ctx)\` | ${config.actTimeoutMs} ms |
| \`reset(observation, info)\` | ${config.actTimeoutMs} ms |
| each \`act(observation, info)\` | ${config.actTimeoutMs} ms |
| the whole ${u}, from loading the modules to the last step (the environment's own set-up not counted) | ${config.episodeTimeoutMs} ms |
| memory (per worker process, which runs one ${u} at a time) | ${DEFAULT_HEAP_MB} MiB of JavaScript heap, ${DEFAULT_HEAP_MB + DEFAULT_RSS_HEADROOM_MB} MiB resident (typed arrays included) |
| console output | ${config.maxLogBytes} characters per ${u}; later output is dropped and the log marked truncated |
${u === 'episode' ? `| recorded trajectory | the first ${config.maxTrajectorySteps} steps of each episode |\n` : ''}| \`policy/\` folder | ${DEFAULT_BUNDLE_LIMITS.maxTotalBytes / (1024 * 1024)} MiB, ${DEFAULT_BUNDLE_LIMITS.maxFiles} files |

Time limits are wall-clock time on the runner's machine. A timeout names the call that overran
(\`act() at step 12 did not finish within ${config.actTimeoutMs} ms\`), and what the policy printed before it is
kept in its log. Training, validation and assessment ${u}s all run on the runner's worker
processes, one ${u} per worker, as many at once as there are workers (one per core: ${os.availableParallelism()} on the
machine that created this workspace). A call that takes most of its limit alone may overrun when
every core is busy: leave headroom.
`;
}
