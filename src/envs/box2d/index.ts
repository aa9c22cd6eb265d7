/** The Box2D family: Gymnasium's LunarLander, BipedalWalker and CarRacing on planck. */
import type { EnvDefinition } from '../core/definition';
import { onFirstUse } from '../core/lazy';
import type * as Implementations from './implementations';
import { bipedalWalkerDeclarations, bipedalWalkerGuide, carRacingDeclarations, carRacingGuide, lunarLanderDeclarations, lunarLanderGuide } from './guides';
import { bipedalWalkerStarter, carRacingStarter, lunarLanderStarter } from './starters';

/** The environment classes, loaded when the first Box2D environment is made (implementations.ts, ../core/lazy.ts). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const implementations = onFirstUse(() => require('./implementations') as typeof Implementations);

export const box2dEnvironments: readonly EnvDefinition[] = [
  landerDefinition('LunarLander-v3', false),
  landerDefinition('LunarLanderContinuous-v3', true),
  walkerDefinition('BipedalWalker-v3', false, 1600),
  walkerDefinition('BipedalWalkerHardcore-v3', true, 2000),
  {
    id: 'CarRacing-v3',
    family: 'box2d/carracing',
    description: 'Drive a car around a random track seen as a 96×96 top-down image; +1000/N per new track tile, -0.1 per frame, up to 1000 steps.',
    params: {
      continuous: { type: 'boolean', default: true, description: 'Continuous [steer, gas, brake] instead of 5 discrete actions (nothing, right, left, gas, brake)' },
      domain_randomize: { type: 'boolean', default: false, description: 'Random road, background and grass colours each reset' },
      lap_complete_percent: { type: 'number', default: 0.95, min: 0, max: 1, description: 'Fraction of tiles to visit before crossing the start counts as a finished lap' },
      track_turn_rate: { type: 'number', default: 0.31, min: 0.1, max: 0.6, description: 'Most the track turns between two of its points (rad); lower bends more gently' },
    },
    training: { lap_complete_percent: { min: 0.5, max: 1 }, track_turn_rate: { min: 0.15, max: 0.31 }, domain_randomize: { values: [false, true] } },
    maxEpisodeSteps: 1000,
    rewardRange: [-Infinity, Infinity],
    // −0.1 for each of 1000 frames, the last replaced by −100 when the car leaves the playfield:
    // −199.9 at worst; tiles only add.
    failureReturn: -200,
    create: (p) =>
      new (implementations().CarRacingEnv)({
        continuous: p['continuous'] !== false,
        domainRandomize: p['domain_randomize'] === true,
        lapCompletePercent: p['lap_complete_percent'] as number,
        ...(p['track_turn_rate'] !== undefined ? { trackTurnRate: p['track_turn_rate'] as number } : {}),
      }),
    starterPolicy: carRacingStarter,
    declarations: carRacingDeclarations,
    guide: carRacingGuide,
  },
];

/** Gymnasium registers the continuous lander under its own id; both ids accept `continuous`. */
function landerDefinition(id: string, continuous: boolean): EnvDefinition {
  return {
    id,
    family: 'box2d/lunarlander',
    description: `Land a rocket between the flags by firing its main and side engines${continuous ? ' (continuous throttles)' : ''}; +100 for coming to rest, -100 for crashing, up to 1000 steps.`,
    params: {
      continuous: { type: 'boolean', default: continuous, description: 'Continuous throttles [main, lateral] in -1..1 instead of 4 discrete actions' },
      gravity: { type: 'number', default: -10, min: -12, max: 0, exclusiveMin: true, exclusiveMax: true, description: 'Gravity (m/s², negative)' },
      enable_wind: { type: 'boolean', default: false, description: 'Apply wind and turbulence while no leg touches the ground' },
      wind_power: { type: 'number', default: 15, min: 0, max: 20, description: 'Largest linear wind force' },
      turbulence_power: { type: 'number', default: 1.5, min: 0, max: 2, description: 'Largest rotational turbulence torque' },
      initial_random: { type: 'number', default: 1000, min: 0, max: 2000, description: 'Largest component of the random push the lander gets at reset' },
    },
    training: {
      gravity: { min: -11.9, max: -1 },
      enable_wind: { values: [false, true] },
      wind_power: { min: 0, max: 20 },
      turbulence_power: { min: 0, max: 2 },
      initial_random: { min: 0, max: 1500 },
    },
    maxEpisodeSteps: 1000,
    rewardRange: [-Infinity, Infinity],
    // No lower bound: the shaping charges distance, speed and tilt without limit. Declared: the
    // crash (−100), full main and side engines for 1000 steps (−330), and shaping from the start
    // to a lander 2 screen halves away, at speed 2 and upside down (about −570), rounded.
    failureReturn: -1000,
    create: (p) =>
      new (implementations().LunarLanderEnv)({
        continuous: p['continuous'] === true,
        gravity: p['gravity'] as number,
        enableWind: p['enable_wind'] === true,
        windPower: p['wind_power'] as number,
        turbulencePower: p['turbulence_power'] as number,
        ...(p['initial_random'] !== undefined ? { initialRandom: p['initial_random'] as number } : {}),
      }),
    starterPolicy: lunarLanderStarter,
    declarations: lunarLanderDeclarations,
    guide: lunarLanderGuide,
  };
}

/** BipedalWalkerHardcore-v3 is Gymnasium's hardcore terrain with a 2000-step limit. */
function walkerDefinition(id: string, hardcore: boolean, maxEpisodeSteps: number): EnvDefinition {
  return {
    id,
    family: 'box2d/bipedalwalker',
    description: `Walk a two-legged robot across ${hardcore ? 'terrain with stumps, stairs and pits' : 'gently rolling terrain'} with four joint motors; about 300 points for reaching the end, -100 for falling, up to ${maxEpisodeSteps} steps.`,
    params: {
      hardcore: { type: 'boolean', default: hardcore, description: 'Add stumps, stairs and pits to the terrain' },
      terrain_roughness: { type: 'number', default: 1, min: 0, max: 2, description: 'Scale of the grass\'s random slope changes (0: flat)' },
      obstacle_spacing: { type: 'integer', default: 1, min: 1, max: 4, description: 'Multiplies the grass between hardcore obstacles (higher: fewer obstacles)' },
    },
    // Hardcore practice may switch the obstacles off to work on walking alone.
    training: { ...(hardcore ? { hardcore: { values: [false, true] } } : {}), terrain_roughness: { min: 0, max: 1.5 }, obstacle_spacing: { min: 1, max: 4 } },
    maxEpisodeSteps,
    rewardRange: [-Infinity, Infinity],
    // The shaping telescopes: at worst back from the start pad to x = 0 (−20.2) and the hull at
    // ±π (−5π); full torque costs 4·0.028 per step; the fall replaces the last step with −100.
    failureReturn: -Math.ceil(100 + (130 * (14 / 30) * 10) / 30 + 5 * Math.PI + 4 * 0.00035 * 80 * maxEpisodeSteps),
    create: (p) =>
      new (implementations().BipedalWalkerEnv)({
        hardcore: p['hardcore'] === true,
        ...(p['terrain_roughness'] !== undefined ? { terrainRoughness: p['terrain_roughness'] as number } : {}),
        ...(p['obstacle_spacing'] !== undefined ? { obstacleSpacing: p['obstacle_spacing'] as number } : {}),
      }),
    starterPolicy: bipedalWalkerStarter,
    declarations: bipedalWalkerDeclarations,
    guide: bipedalWalkerGuide,
  };
}
