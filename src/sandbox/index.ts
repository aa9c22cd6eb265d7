/**
 * The sandbox's public API: build a policy bundle, run batches of episodes on sandboxed
 * worker processes. Everything the runner, CLI and extension use comes from here.
 */
export { buildBundle } from './bundle/buildBundle';
export { DEFAULT_BUNDLE_LIMITS } from './bundle/policyFolder';
export { typeCheckPolicy, type TypeCheckResult } from './bundle/typeCheck';
export { SandboxPool, SandboxRequestError, DEFAULT_EPISODE_LIMITS, DEFAULT_HEAP_MB, DEFAULT_RSS_HEADROOM_MB } from './pool/sandboxPool';
export { CLOCK_ORIGIN_MS, CLOCK_TICK_MS } from './worker/prelude';
export { bundleProbes } from './coverage/probes';
export type {
  BatchRequest,
  BuildOptions,
  BuildResult,
  BundleDiagnostic,
  BundleFile,
  BundleLimits,
  EpisodeLimits,
  EpisodeSpec,
  PolicyBundle,
  SandboxPoolOptions,
} from './types';
