/**
 * The files a new policy workspace starts with for one environment: the starter policy, the
 * generated `policy/env.d.ts`, the environment's extra modules, and a tsconfig so editors
 * type-check the policy against the generated declarations.
 */
import type { EnvDefinition } from './definition';
import { generateEnvDeclarations } from './declarations';
import type { Env } from './env';
import type { ParamValues } from './params';

/** Workspace-relative path → file content. */
export type WorkspaceFiles = Record<string, string>;

export const WORKSPACE_TSCONFIG = `${JSON.stringify(
  {
    compilerOptions: {
      target: 'ES2022',
      lib: ['ES2022'],
      module: 'ESNext',
      moduleResolution: 'bundler',
      strict: true,
      noEmit: true,
      resolveJsonModule: true,
      types: [],
    },
    include: ['policy/**/*.ts', 'policy/**/*.json'],
  },
  null,
  2,
)}\n`;

/** Files regenerated from the environment (safe to overwrite on init). */
export function generatedFiles(def: EnvDefinition, params: ParamValues, env: Env): WorkspaceFiles {
  return {
    'policy/env.d.ts': generateEnvDeclarations(def, params, env),
    'tsconfig.json': WORKSPACE_TSCONFIG,
  };
}

/** Everything a fresh workspace gets under its root, the starter policy included. */
export function starterFiles(def: EnvDefinition, params: ParamValues, env: Env): WorkspaceFiles {
  const files: WorkspaceFiles = { 'policy/policy.ts': def.starterPolicy, ...generatedFiles(def, params, env) };
  for (const [rel, content] of Object.entries(def.workspaceFiles ?? {})) {
    files[rel.startsWith('policy/') ? rel : `policy/${rel}`] = content;
  }
  return files;
}
