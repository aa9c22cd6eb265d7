/**
 * The one line a policy file's CodeLens sits on: the `class Policy` declaration, or, in
 * policy/policy.ts when the class is declared some other way, the first `act(` method. One
 * anchor per file, so the lenses appear once (anchoring on both the class and `act` drew every
 * lens twice). No `vscode` import (unit-tested).
 */
const CLASS_POLICY = /^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+Policy\b/;
const ACT_METHOD = /^\s*(?:public\s+)?(?:async\s+)?act\s*\(/;

export function policyLensLine(lines: readonly string[], isEntryFile: boolean): number | undefined {
  const cls = lines.findIndex((l) => CLASS_POLICY.test(l));
  if (cls >= 0) return cls;
  if (!isEntryFile) return undefined;
  const act = lines.findIndex((l) => ACT_METHOD.test(l));
  return act >= 0 ? act : undefined;
}
