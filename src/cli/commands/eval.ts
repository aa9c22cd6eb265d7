/**
 * `policyforge eval`: a direct evaluation of a policy folder (or an environment's starter
 * policy) in the sandbox, with no run and no budget. Prints mean ± stderr and per-status
 * counts, or JSON.
 */
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRegistry } from '../../envs';
import { Rng } from '../../envs/core/rng';
import { starterFiles } from '../../envs/core/starterFiles';
import type { EpisodeRecord } from '../../protocol/episodes';
import { returnStats, statusCounts } from '../../stats/returnStats';
import { runScoreFormat } from '../../stats/scoreFormat';
import { buildBundle, SandboxPool, SandboxRequestError, typeCheckPolicy, type BundleDiagnostic, type EpisodeSpec, type TypeCheckResult } from '../../sandbox';
import { parseFrozenConfig } from '../../runner/config';
import { workspacePaths } from '../../runner/paths';
import { dataDir } from '../../runner/secret';
import { parse, parseIntArg, parseParams } from '../args';
import { ExitCode, UsageError, type CliCommand } from '../command';
import { errorLines, stats } from './format';
import { findWorkspace } from './runClient';

export const evalCommand: CliCommand = {
  name: 'eval',
  summary: 'Evaluate a policy in the sandbox for N episodes (no run, no budget)',
  usage:
    'policyforge eval --env ID (--policy DIR | --starter) [--episodes N] [--seed N] [--param name=value]... [--plugin FILE]... [--workers N] [--act-timeout MS] [--episode-timeout MS] [--skip-typecheck] [--json]\n' +
    '  --policy DIR   the policy/ folder, or a workspace holding one (default ./policy)\n' +
    "  --starter      evaluate the environment's starter policy (written to a temporary workspace)\n" +
    '  --skip-typecheck  do not run TypeScript on the policy; its result is cached by the sources\' content\n' +
    '                 (in the user data folder), so a repeated eval of unchanged sources costs no check',
  async run(argv) {
    const { values } = parse(
      argv,
      {
        env: { type: 'string' },
        policy: { type: 'string' },
        starter: { type: 'boolean' },
        episodes: { type: 'string' },
        seed: { type: 'string' },
        param: { type: 'string', multiple: true },
        plugin: { type: 'string', multiple: true },
        workers: { type: 'string' },
        'act-timeout': { type: 'string' },
        'episode-timeout': { type: 'string' },
        'skip-typecheck': { type: 'boolean' },
        json: { type: 'boolean' },
      },
      false,
    );
    if (!values.env) throw new UsageError('--env is required (see `policyforge envs`)');
    if (values.starter && values.policy) throw new UsageError('--policy and --starter exclude each other');
    const episodes = parseIntArg('episodes', values.episodes, 32, 1);
    const seed = parseIntArg('seed', values.seed, 0, 0);
    const workers = values.workers === undefined ? undefined : parseIntArg('workers', values.workers, 1, 1);
    const actTimeoutMs = values['act-timeout'] === undefined ? undefined : parseIntArg('act-timeout', values['act-timeout'], 1000, 1);
    const episodeTimeoutMs = values['episode-timeout'] === undefined ? undefined : parseIntArg('episode-timeout', values['episode-timeout'], 30000, 1);
    const params = parseParams(values.param);
    const plugins = (values.plugin ?? []).map((p) => path.resolve(p));

    const registry = createRegistry();
    for (const p of plugins) {
      const r = registry.loadPlugin(p);
      if (!r.ok) throw new UsageError(`--plugin ${p}: ${r.error.reason}`);
    }
    if (!registry.has(values.env)) {
      try {
        registry.get(values.env);
      } catch (e) {
        throw new UsageError(`--env: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    let made;
    try {
      made = registry.make(values.env, params);
    } catch (e) {
      throw new UsageError(`--param: ${e instanceof Error ? e.message : String(e)}`);
    }

    const policyRoot = values.starter ? undefined : workspaceRoot(values.policy ?? 'policy');
    const activeRun = activeRunOf(values.env, [process.cwd(), ...(policyRoot ? [policyRoot] : [])]);
    if (activeRun) {
      const message =
        `${activeRun} holds a run on ${values.env} in its agent phase: eval would give it free episodes of the environment its budget measures. ` +
        `Run the policy with \`policyforge submit --cases 0-7\` (charged, and it counts), or eval another environment or outside the workspace.`;
      if (values.json) process.stdout.write(`${JSON.stringify({ ok: false, error: { reason: 'eval_inside_run', message } }, null, 2)}\n`);
      else process.stderr.write(`policyforge eval: ${message}\n`);
      return ExitCode.failed;
    }

    let root: string;
    let cleanup = (): void => undefined;
    if (values.starter) {
      root = mkdtempSync(path.join(os.tmpdir(), 'policyforge-starter-'));
      cleanup = () => rmSync(root, { recursive: true, force: true });
      for (const [rel, content] of Object.entries(starterFiles(made.definition, made.params, made.env))) {
        mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
        writeFileSync(path.join(root, rel), content);
      }
    } else {
      root = policyRoot!;
    }

    try {
      const built = await buildBundle(root, { typeCheck: false });
      if (!built.ok) {
        if (values.json) process.stdout.write(`${JSON.stringify({ ok: false, diagnostics: built.diagnostics }, null, 2)}\n`);
        else process.stderr.write(`the policy does not build:\n${built.diagnostics.map(formatDiagnostic).join('\n')}\n`);
        return ExitCode.failed;
      }
      // Cached by the sources' content: evaluating the same policy again skips the checker.
      const typeCheck: TypeCheckResult | null = values['skip-typecheck']
        ? null
        : await typeCheckPolicy(root, built.bundle.files.map((f) => f.path), { cacheDir: typeCheckCacheDir() });
      const diagnostics = [...built.diagnostics, ...(typeCheck?.diagnostics ?? [])];
      if (!values.json) for (const d of diagnostics) process.stderr.write(`${formatDiagnostic(d)}\n`);
      const specs = episodeSpecs(seed, episodes);
      const pool = new SandboxPool(workers === undefined ? {} : { workers });
      const t0 = performance.now();
      let records: EpisodeRecord[];
      try {
        const limits = { maxTrajectorySteps: 0, ...(actTimeoutMs === undefined ? {} : { actTimeoutMs }), ...(episodeTimeoutMs === undefined ? {} : { episodeTimeoutMs }) };
        records = await pool.runBatch({ bundle: built.bundle, envId: values.env, params: made.params, episodes: specs, plugins, limits });
      } catch (e) {
        if (e instanceof SandboxRequestError) throw new UsageError(e.message);
        throw e;
      } finally {
        await pool.close();
      }
      const wallMs = performance.now() - t0;
      const summary = {
        ok: true,
        envId: values.env,
        params: made.params,
        bundle: built.bundle.id,
        seed,
        stats: returnStats(records),
        statusCounts: statusCounts(records),
        wallMs,
        typeCheck: typeCheck && { cached: typeCheck.cached, ms: typeCheck.ms },
        diagnostics,
        episodes: records.map(({ trajectory: _t, log, ...rest }) => ({ ...rest, log: log.text ? log : undefined })),
      };
      if (values.json) {
        process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
      } else {
        const steps = records.reduce((a, r) => a + r.length, 0);
        const out = [
          `${values.env}  ${records.length} episodes  seed ${seed}  bundle ${built.bundle.id.slice(0, 12)}`,
          `  return ${stats(summary.stats, runScoreFormat([summary.stats.mean]))}`,
          `  length mean ${(steps / Math.max(1, records.length)).toFixed(1)}`,
          `  status ${Object.entries(summary.statusCounts).map(([k, v]) => `${k} ${v}`).join(', ')}`,
          `  wall   ${(wallMs / 1000).toFixed(2)} s (${Math.round(steps / (wallMs / 1000))} steps/s)`,
          `  types  ${typeCheckText(typeCheck, diagnostics)}`,
        ];
        const errors = errorLines([{ submission: 0, episodes: records }]);
        if (errors.length) out.push('  errors (episodes listed as cases; --json has every one):', ...errors.map((l) => `  ${l}`));
        process.stdout.write(`${out.join('\n')}\n`);
      }
      return records.every((r) => r.status === 'ok') ? ExitCode.ok : ExitCode.failed;
    } finally {
      cleanup();
    }
  },
};

/**
 * The workspace, if any, around one of `places` whose run is on `envId` and still in its agent
 * phase (no report yet): eval there would be free episodes the run's budget is meant to count.
 */
function activeRunOf(envId: string, places: readonly string[]): string | undefined {
  for (const place of places) {
    const ws = findWorkspace(place);
    if (!ws) continue;
    const paths = workspacePaths(ws);
    if (existsSync(paths.report)) continue;
    let config;
    try {
      config = parseFrozenConfig(JSON.parse(readFileSync(paths.runJson, 'utf8')));
    } catch {
      continue; // an unreadable run.json is the run's own problem, reported by its commands
    }
    if (config.ok && config.config.envId === envId) return ws;
  }
  return undefined;
}

/** Type-check results of earlier evals, shared by every workspace of this user (entries are keyed by content). */
function typeCheckCacheDir(): string {
  return path.join(dataDir(), 'cache', 'typecheck');
}

function typeCheckText(check: TypeCheckResult | null, diagnostics: readonly BundleDiagnostic[]): string {
  if (!check) return 'not checked (--skip-typecheck)';
  const errors = diagnostics.filter((d) => d.kind === 'type').length;
  const found = errors === 0 ? 'no type errors' : `${errors} type error${errors === 1 ? '' : 's'} (above)`;
  return `${found}; ${check.cached ? 'checked before, result reused from the cache' : `checked in ${(check.ms / 1000).toFixed(2)} s`}`;
}

/** `--policy` names the policy/ folder itself or a workspace that holds one. */
function workspaceRoot(given: string): string {
  const abs = path.resolve(given);
  if (!existsSync(abs) || !statSync(abs).isDirectory()) throw new UsageError(`--policy ${given}: no such folder`);
  if (existsSync(path.join(abs, 'policy', 'policy.ts'))) return abs;
  if (existsSync(path.join(abs, 'policy.ts'))) {
    if (path.basename(abs) !== 'policy') throw new UsageError(`--policy ${given}: the folder holding policy.ts must be named policy/ (imports and source maps use policy/… paths)`);
    return path.dirname(abs);
  }
  throw new UsageError(`--policy ${given}: no policy.ts in it (nor a policy/policy.ts)`);
}

/** Episode i's seeds, drawn from --seed: the same command gives the same episodes. */
export function episodeSpecs(seed: number, n: number): EpisodeSpec[] {
  const rng = new Rng(`eval:${seed}`);
  return Array.from({ length: n }, (_, i) => ({ caseIndex: i, envSeed: rng.integers(0, 2 ** 31), policySeed: rng.integers(0, 2 ** 31) }));
}

function formatDiagnostic(d: BundleDiagnostic): string {
  return `${d.file}${d.line ? `:${d.line}:${d.column + 1}` : ''}: ${d.severity} (${d.kind}): ${d.message}`;
}
