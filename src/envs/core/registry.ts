/**
 * The environment registry: `make(id, params)` and `list()`, fed by built-in families and by
 * plugins loaded from a path at run time. A broken plugin is reported and skipped; it never
 * takes the others down.
 */
import * as path from 'node:path';
import type { EnvDefinition, EnvPluginModule } from './definition';
import { EpisodeLimits, type Env } from './env';
import { failureReturnOf, hasFailureReturn } from './failureReturn';
import { resolveParams, type ParamValues } from './params';
import { trainingSchemaProblem } from './training';

export class UnknownEnvError extends Error {
  override name = 'UnknownEnvError';
}

export class PluginLoadError extends Error {
  override name = 'PluginLoadError';
  constructor(readonly plugin: string, readonly reason: string) {
    super(`environment plugin ${plugin} failed to load: ${reason}`);
  }
}

export interface MadeEnv {
  readonly definition: EnvDefinition;
  readonly params: ParamValues;
  readonly env: EpisodeLimits<unknown, unknown>;
  /** What a failed episode scores under these parameters (`failureReturn.ts`). */
  readonly failureReturn: number;
}

export class EnvRegistry {
  private readonly defs = new Map<string, EnvDefinition>();

  register(def: EnvDefinition, source = 'built-in'): void {
    validateDefinition(def, source);
    if (this.defs.has(def.id)) throw new Error(`${source}: environment id ${def.id} is already registered`);
    this.defs.set(def.id, def);
  }

  registerAll(defs: readonly EnvDefinition[], source = 'built-in'): void {
    for (const d of defs) this.register(d, source);
  }

  has(id: string): boolean {
    return this.defs.has(id);
  }

  get(id: string): EnvDefinition {
    const def = this.defs.get(id);
    if (!def) {
      const near = [...this.defs.keys()].filter((k) => k.toLowerCase().includes(id.toLowerCase().replace(/-v\d+$/, ''))).slice(0, 5);
      throw new UnknownEnvError(`unknown environment "${id}"${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}; see \`policyforge envs\``);
    }
    return def;
  }

  list(): EnvDefinition[] {
    return [...this.defs.values()];
  }

  /** True when the id has an asynchronous `load` to await before its first episode in a process. */
  needsPreparation(id: string): boolean {
    return this.defs.get(id)?.load !== undefined;
  }

  /** Runs the definition's `load` (once per process: it caches its own result); resolves at once when there is none. */
  async prepare(id: string): Promise<void> {
    await this.get(id).load?.();
  }

  /** Validates the parameters and builds the environment inside Gymnasium's episode limits. */
  make(id: string, params: Readonly<Record<string, unknown>> = {}): MadeEnv {
    const definition = this.get(id);
    const resolved = resolveParams(id, definition.params, params);
    const env = new EpisodeLimits(definition.create(resolved) as Env<unknown, unknown>, definition.maxEpisodeSteps);
    return { definition, params: resolved, env, failureReturn: failureReturnOf(definition, resolved) };
  }

  /**
   * Loads a plugin module (a CommonJS/bundled JS file exporting `environments`). Errors are
   * returned, not thrown, so one bad plugin cannot stop the rest from loading.
   */
  loadPlugin(modulePath: string): { ok: true; ids: string[] } | { ok: false; error: PluginLoadError } {
    const abs = path.resolve(modulePath);
    let mod: EnvPluginModule;
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      mod = require(abs) as EnvPluginModule;
    } catch (e) {
      return { ok: false, error: new PluginLoadError(abs, e instanceof Error ? e.message : String(e)) };
    }
    const defs = mod.environments ?? (Array.isArray(mod.default) ? mod.default : (mod.default as { environments?: readonly EnvDefinition[] } | undefined)?.environments);
    if (!Array.isArray(defs)) {
      return { ok: false, error: new PluginLoadError(abs, 'it exports no `environments` array') };
    }
    const staged: EnvDefinition[] = [];
    try {
      for (const d of defs as EnvDefinition[]) {
        validateDefinition(d, abs);
        if (this.defs.has(d.id) || staged.some((s) => s.id === d.id)) throw new Error(`environment id ${d.id} is already registered`);
        staged.push(d);
      }
    } catch (e) {
      return { ok: false, error: new PluginLoadError(abs, e instanceof Error ? e.message : String(e)) };
    }
    for (const d of staged) this.defs.set(d.id, d);
    return { ok: true, ids: staged.map((d) => d.id) };
  }
}

function validateDefinition(def: EnvDefinition, source: string): void {
  const where = `${source}: environment definition${def && typeof def.id === 'string' ? ` ${def.id}` : ''}`;
  if (!def || typeof def !== 'object') throw new Error(`${where} is not an object`);
  if (typeof def.id !== 'string' || !/^[A-Za-z0-9_./-]+-v\d+$/.test(def.id)) throw new Error(`${where} has an invalid id (expected Name-vN)`);
  if (typeof def.create !== 'function') throw new Error(`${where} has no create() function`);
  if (typeof def.starterPolicy !== 'string') throw new Error(`${where} has no starterPolicy source`);
  if (typeof def.family !== 'string' || typeof def.description !== 'string') throw new Error(`${where} needs a family and a description`);
  if (def.maxEpisodeSteps !== null && !(Number.isInteger(def.maxEpisodeSteps) && def.maxEpisodeSteps > 0)) {
    throw new Error(`${where} has an invalid maxEpisodeSteps`);
  }
  if (!hasFailureReturn(def)) {
    throw new Error(`${where} has no finite failureReturn (the worst return within its time limit; a failed episode scores it)`);
  }
  const training = trainingSchemaProblem(def);
  if (training) throw new Error(`${where}: ${training}`);
}
