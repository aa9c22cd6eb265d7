/**
 * A bundle as a worker runs it: its code (rewritten to be shared when modulePlan.ts allows),
 * its source map, and which of the worker's fast paths its episodes take. No policy can tell
 * a fast path from the plain one; each exists because it saves a large share of a small-Box
 * episode (the sandbox bench's "fast paths" rows measure each against the rest).
 */
import { BUNDLE_FILENAME } from '../bundle/constants';
import { planModule } from './modulePlan';
import type { PolicyRealm, RealmCode } from './policyRealm';
import { BundleSourceMap } from './policyError';
import { instrumentBundle } from '../coverage/instrument';

/** Each fast path, on unless a test or the bench turns it off to compare. */
export interface FastPaths {
  /** The module runs once per realm, sealed, when modulePlan.ts finds it has no state of its own. */
  shareModule: boolean;
  /** One realm array carries every Box observation when observationUse.ts finds `act` only reads it (needs a shared module). */
  borrowObservation: boolean;
  /** Globals are looked for between episodes only when the code names `globalThis` (modulePlan.ts). */
  skipGlobalCleanup: boolean;
}

export const ALL_FAST_PATHS: Readonly<FastPaths> = Object.freeze({ shareModule: true, borrowObservation: true, skipGlobalCleanup: true });

export interface LoadedBundle extends RealmCode {
  sourceMap: BundleSourceMap;
  /** The policy's `act` only reads its observation (see observationUse.ts). */
  borrowObservation: boolean;
  /** The hardened realm kept for this bundle's next episode, if the last one left it usable. */
  realm?: PolicyRealm;
  /** The bundle as it came from the host. */
  source: string;
  /** The same bundle with coverage probes, made for the first episode that asks for coverage. */
  covered?: LoadedBundle;
}

export function loadBundle(code: string, paths: Readonly<FastPaths> = ALL_FAST_PATHS, coverage = false): LoadedBundle {
  const plan = planModule(code);
  const shared = paths.shareModule && plan.reuse;
  // The rewrite only adds text before the module's final return: the source map still holds.
  const runs = shared ? plan.code : code;
  // Fast paths are planned on the plain code: the probes' writes go to a parameter, never to
  // module state or the observation, so they change none of those decisions.
  const probed = coverage ? instrumentBundle(runs) : undefined;
  return {
    code: probed ? probed.code : runs,
    shared,
    borrowObservation: shared && paths.borrowObservation && plan.borrowObservation,
    mayAddGlobals: !paths.skipGlobalCleanup || plan.mayAddGlobals,
    sourceMap: new BundleSourceMap(code, BUNDLE_FILENAME, probed?.bundleColumn),
    source: code,
    ...(probed ? { probes: probed.probes } : {}),
  };
}

/** The bundle with coverage probes (made once per loaded bundle), keeping its fast paths. */
export function coveredBundle(bundle: LoadedBundle, paths: Readonly<FastPaths> = ALL_FAST_PATHS): LoadedBundle {
  return (bundle.covered ??= loadBundle(bundle.source, paths, true));
}
