/** The Box2D family: Gymnasium's LunarLander, BipedalWalker and CarRacing on planck. */
import type { EnvDefinition } from '../core/definition';
import { LunarLanderEnv } from './lunarLander';
import { lunarLanderGuide, lunarLanderDeclarations } from './guides';
import { lunarLanderStarter } from './starters';

export const box2dEnvironments: readonly EnvDefinition[] = [
  {
    id: 'LunarLander-v3',
    family: 'box2d/lunarlander',
    description: 'Land a rocket between the flags by firing its main and side engines; +100 for resting, -100 for crashing, up to 1000 steps.',
    params: {
      continuous: { type: 'boolean', default: false, description: 'Continuous throttles [main, lateral] in -1..1 instead of 4 discrete actions' },
      gravity: { type: 'number', default: -10, min: -12, max: 0, exclusiveMin: true, exclusiveMax: true, description: 'Gravity (m/s², negative)' },
      enable_wind: { type: 'boolean', default: false, description: 'Apply wind and turbulence while no leg touches the ground' },
      wind_power: { type: 'number', default: 15, min: 0, max: 20, description: 'Largest linear wind force' },
      turbulence_power: { type: 'number', default: 1.5, min: 0, max: 2, description: 'Largest rotational turbulence torque' },
    },
    maxEpisodeSteps: 1000,
    rewardRange: [-Infinity, Infinity],
    create: (p) =>
      new LunarLanderEnv({
        continuous: p['continuous'] === true,
        gravity: p['gravity'] as number,
        enableWind: p['enable_wind'] === true,
        windPower: p['wind_power'] as number,
        turbulencePower: p['turbulence_power'] as number,
      }),
    starterPolicy: lunarLanderStarter,
    declarations: lunarLanderDeclarations,
    guide: lunarLanderGuide,
  },
];
