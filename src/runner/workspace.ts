/**
 * Creating a run's workspace: the starter files of the environment, AGENTS.md, and the frozen
 * run config. The run itself (journal, secret) starts on the runner's first open.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { EnvRegistry } from '../envs/core/registry';
import { starterFiles } from '../envs/core/starterFiles';
import type { EnvDefinition } from '../envs/core/definition';
import { writeJsonAtomic } from './atomicFs';
import { makeRunConfig, type RunConfig, type RunConfigInput } from './config';
import { workspacePaths } from './paths';

export type InitResult = { ok: true; config: RunConfig; files: string[] } | { ok: false; error: string };

export interface InitOptions {
  /** Extra root-level files (e.g. AGENTS.md), computed from the definition and config. */
  extraFiles?: (def: EnvDefinition, config: RunConfig) => Record<string, string>;
  /** Replace an existing run in this folder. */
  force?: boolean;
}

export function initWorkspace(dir: string, input: RunConfigInput, registry: EnvRegistry, opts: InitOptions = {}): InitResult {
  const paths = workspacePaths(dir);
  if (fs.existsSync(paths.runJson) && !opts.force) return { ok: false, error: `${paths.root} already holds a run (.policyforge/run.json); use another folder` };
  const made = makeRunConfig(input);
  if (!made.ok) return made;
  let def: EnvDefinition;
  let files: Record<string, string>;
  try {
    const m = registry.make(made.config.envId, made.config.params);
    def = m.definition;
    // Freeze the resolved parameters (defaults filled in) so the run never depends on later defaults.
    made.config = Object.freeze({ ...made.config, params: Object.freeze({ ...m.params }) });
    files = { ...starterFiles(def, m.params, m.env), ...(opts.extraFiles?.(def, made.config) ?? {}) };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(paths.root, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
  }
  fs.mkdirSync(paths.feedback, { recursive: true });
  fs.mkdirSync(paths.state, { recursive: true });
  if (opts.force) {
    for (const f of [paths.events, paths.report]) fs.rmSync(f, { force: true });
    fs.rmSync(paths.feedback, { recursive: true, force: true });
    fs.mkdirSync(paths.feedback, { recursive: true });
  }
  fs.writeFileSync(path.join(paths.state, '.gitignore'), '*\n');
  writeJsonAtomic(paths.runJson, made.config);
  return { ok: true, config: made.config, files: Object.keys(files) };
}
