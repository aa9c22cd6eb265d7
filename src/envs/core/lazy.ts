/**
 * A family's implementation loaded on first use. A family's definitions module (ids, parameters,
 * guides, starters) stays cheap to import, and passes `() => require('./implementations')`
 * here, so a process that never makes one of the family's environments (a sandbox worker on
 * another family, the CLI listing ids) never runs the environment classes' module code. The
 * `require` must stay in the family's own file, where the bundler sees its relative path.
 */
export function onFirstUse<T>(load: () => T): () => T {
  // Kept: a bundler's `require` of an ES module builds a fresh namespace object on every call.
  let loaded: T | undefined;
  return () => (loaded ??= load());
}
