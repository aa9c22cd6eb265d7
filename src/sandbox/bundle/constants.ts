/** Names shared by the bundler and the worker that evaluates bundles (kept free of esbuild imports). */

/** The global the bundle assigns its exports to inside the policy realm. */
export const POLICY_GLOBAL = '__policyforge_module';
/** The file name the bundle's stack frames carry (source-mapped back to `policy/*.ts`). */
export const BUNDLE_FILENAME = 'policyforge-bundle.js';
