/**
 * Random-policy returns for the Box2D ids: mean ± standard error over N episodes (reset seeds
 * 0..N-1, actions sampled uniformly from the action space by our seeded generator). CarRacing's
 * frames are not drawn here: a random policy never reads them and the return does not depend
 * on them. Run: `npx tsx bench/box2dRandom.ts [episodes] [id…]`.
 */
import { createRegistry } from '../src/envs';
import { CarRacingEnv } from '../src/envs/box2d/carRacing';
import { EpisodeLimits, type Env } from '../src/envs/core/env';
import { randomReturns } from './randomReturns';

const IDS = ['LunarLander-v3', 'LunarLanderContinuous-v3', 'BipedalWalker-v3', 'BipedalWalkerHardcore-v3', 'CarRacing-v3', 'CarRacing-v3 (discrete)'];

function makeEnv(id: string): EpisodeLimits<unknown, unknown> {
  const registry = createRegistry();
  if (id.startsWith('CarRacing')) {
    const continuous = !id.includes('discrete');
    return new EpisodeLimits(new CarRacingEnv({ continuous, domainRandomize: false, lapCompletePercent: 0.95, skipFrames: true }) as Env<unknown, unknown>, 1000);
  }
  return registry.make(id).env;
}

if (require.main === module) {
  const episodes = Number(process.argv[2] ?? 200);
  const ids = process.argv.length > 3 ? process.argv.slice(3) : IDS;
  for (const id of ids) {
    const t0 = performance.now();
    const r = randomReturns(makeEnv(id), episodes);
    process.stdout.write(`| ${id} | ${episodes} | ${r.mean.toFixed(1)} ± ${r.stderr.toFixed(1)} | ${r.meanLength.toFixed(0)} | ${((performance.now() - t0) / 1000).toFixed(0)} s |\n`);
  }
}
