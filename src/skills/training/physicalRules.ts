/**
 * The proposer's rules for the physics families. Box2D: the lander's crash and landing are
 * practised without wind, under a gentler start push and weaker gravity; the walker's footing
 * on smoother ground with fewer obstacles; the car's lap on gentler tracks that count a lap
 * sooner. MuJoCo: locomotion from calmer starts with looser health limits; the arms with goals
 * nearer and (Fetch) a wider success distance.
 */
import type { EnvDefinition } from '../../envs/core/definition';
import type { ParamValue, ParamValues } from '../../envs/core/params';
import { changes, listPhrase, towardKnob } from './knobs';
import type { Chosen, FamilyRule } from './rules';

/** The proposal, or null when it would change nothing (the run already sits at the easy end). */
function chosen(run: ParamValues, params: Record<string, ParamValue | undefined>, why: string): Chosen | null {
  const p = changes(run, params);
  return Object.keys(p).length ? { params: p, why } : null;
}

/** A boolean knob switched to `value` when the definition allows it. */
function flag(def: EnvDefinition, name: string, value: boolean): boolean | undefined {
  const knob = def.training?.[name];
  return knob && 'values' in knob && (knob.values as readonly unknown[]).includes(value) ? value : undefined;
}

function landerRule(def: EnvDefinition): FamilyRule {
  return {
    order: ['avoided_crash', 'landed_between_flags'],
    propose(skill, run) {
      const r = skill.mean;
      const windOff = run['enable_wind'] === true ? flag(def, 'enable_wind', false) : undefined;
      const calm = { enable_wind: windOff, initial_random: towardKnob(def, run, 'initial_random', 0, r) };
      const wind = windOff === false ? 'without wind, ' : '';
      if (skill.id === 'avoided_crash') {
        return chosen(run, { ...calm, gravity: towardKnob(def, run, 'gravity', -5, r) }, `practise ${wind}with a gentler push at the start and weaker gravity, restoring them as crashes become rarer`);
      }
      return chosen(run, calm, `practise ${wind}with a gentler push at the start, so the lander begins nearer above the pad, restoring ${wind ? 'both' : 'the push'} as landings between the flags succeed`);
    },
  };
}

function walkerRule(def: EnvDefinition): FamilyRule {
  return {
    order: ['stayed_up', 'reached_end'],
    propose(skill, run) {
      const r = skill.mean;
      const smooth = towardKnob(def, run, 'terrain_roughness', 0, r);
      if (run['hardcore'] === true && skill.id === 'stayed_up' && r < 0.5) {
        return chosen(run, { hardcore: flag(def, 'hardcore', false), terrain_roughness: smooth }, 'practise walking on smoother ground without the hardcore obstacles, bringing them back once it stays up half the time');
      }
      const spacing = run['hardcore'] === true ? towardKnob(def, run, 'obstacle_spacing', 'max', r) : undefined;
      const what = spacing !== undefined ? 'smoother ground with obstacles further apart' : 'smoother ground';
      return chosen(run, { terrain_roughness: smooth, obstacle_spacing: spacing }, `practise on ${what}, roughening it again as the walker ${skill.id === 'stayed_up' ? 'stays up' : 'reaches the end'} more often`);
    },
  };
}

function carRule(def: EnvDefinition): FamilyRule {
  return {
    order: ['finished_lap'],
    propose(skill, run) {
      const r = skill.mean;
      return chosen(
        run,
        {
          track_turn_rate: towardKnob(def, run, 'track_turn_rate', 'min', r),
          lap_complete_percent: towardKnob(def, run, 'lap_complete_percent', 'min', r),
          domain_randomize: run['domain_randomize'] === true ? flag(def, 'domain_randomize', false) : undefined,
        },
        'practise on tracks with gentler bends where a lap counts after fewer tiles, restoring both as laps are finished more often',
      );
    },
  };
}

export function box2dRule(def: EnvDefinition): FamilyRule {
  if (def.family === 'box2d/lunarlander') return landerRule(def);
  if (def.family === 'box2d/bipedalwalker') return walkerRule(def);
  return carRule(def);
}

/** Every `healthy_*_min` knob at its loosest (its lower bound), every `_max` at its upper bound, moving back with the rate. */
function looserHealth(def: EnvDefinition, run: ParamValues, r: number): Record<string, number | undefined> {
  const out: Record<string, number | undefined> = {};
  for (const name of Object.keys(def.training ?? {})) {
    if (!name.startsWith('healthy_')) continue;
    out[name] = towardKnob(def, run, name, name.endsWith('_min') ? 'min' : 'max', r);
  }
  return out;
}

export function mujocoRule(def: EnvDefinition): FamilyRule {
  return {
    order: ['stayed_healthy', 'travelled', 'reached_target', 'reached_goal'],
    propose(skill, run) {
      const r = skill.mean;
      if (skill.id === 'reached_target') {
        return chosen(run, { target_radius: towardKnob(def, run, 'target_radius', 0.1, r) }, 'practise on targets drawn nearer the base, away from the edge of the arm\'s reach, widening the disc as the fingertip reaches them more often');
      }
      if (skill.id === 'reached_goal') {
        const parts = ['goals nearer their centre', ...('obj_range' in (def.training ?? {}) ? ['the object nearer the gripper'] : []), 'a wider success distance'];
        return chosen(
          run,
          { target_range: towardKnob(def, run, 'target_range', 'min', r), obj_range: towardKnob(def, run, 'obj_range', 'min', r), distance_threshold: towardKnob(def, run, 'distance_threshold', 'max', r) },
          `practise with ${listPhrase(parts)}, restoring them as the goal is reached more often`,
        );
      }
      const health = looserHealth(def, run, r);
      const loose = Object.keys(health).length > 0;
      // A tenth of the run's noise, not none: with none every practice episode would be the same one.
      const own = run['reset_noise_scale'];
      const noise = towardKnob(def, run, 'reset_noise_scale', typeof own === 'number' ? own / 10 : 0, r);
      if (skill.id === 'stayed_healthy') {
        return chosen(run, { reset_noise_scale: noise, ...health }, `practise from calmer starts (less reset noise)${loose ? ' with looser health limits' : ''}, restoring ${loose ? 'both' : 'the noise'} as the policy stays healthy more often`);
      }
      const why = loose
        ? 'practise from calmer starts (less reset noise) with looser health limits, so episodes last long enough to build a gait, restoring both as it travels further'
        : 'practise from calmer starts (less reset noise), so the gait rather than the recovery from the start is what is practised, restoring the noise as it travels further';
      return chosen(run, { reset_noise_scale: noise, ...health }, why);
    },
  };
}
