/**
 * The sandbox's public API: build a policy bundle, run batches of episodes on sandboxed
 * worker processes. Everything the runner, CLI and extension use comes from here.
 */
export { buildBundle } from './bundle/buildBundle';
export { DEFAULT_BUNDLE_LIMITS } from './bundle/policyFolder';
export { typeCheckPolicy, type TypeCheckResult } from './bundle/typeCheck';
export { SandboxPool, SandboxRequestError, DEFAULT_EPISODE_LIMITS } from './pool/sandboxPool';
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
