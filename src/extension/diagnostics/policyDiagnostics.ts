/**
 * Problems from the run: the last submission's policy failures at their source lines, and the
 * build errors of a rejected submit. Replaced wholesale on every change, so stale entries never
 * linger after a fix.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RunSession } from '../run/runSession';
import { buildProblems, diagnosticMessage, policyProblems } from './errorGroups';

function range(line: number, column: number): vscode.Range {
  const l = Math.max(0, line - 1);
  const c = Math.max(0, column - 1);
  // The whole rest of the line: VS Code clips the end to the line's length.
  return new vscode.Range(l, c, l, c + 10_000);
}

export function registerPolicyDiagnostics(session: RunSession): vscode.Disposable {
  const collection = vscode.languages.createDiagnosticCollection('policyforge');
  const paint = (): void => {
    const model = session.model;
    collection.clear();
    if (!model) return;
    const byFile = new Map<string, vscode.Diagnostic[]>();
    const add = (rel: string, d: vscode.Diagnostic): void => {
      const abs = path.resolve(model.root, rel);
      byFile.set(abs, [...(byFile.get(abs) ?? []), d]);
    };
    const latest = model.latest;
    if (latest) {
      for (const p of policyProblems(latest)) {
        const d = new vscode.Diagnostic(range(p.line, p.column), diagnosticMessage(p.group, latest.submission), vscode.DiagnosticSeverity.Error);
        d.source = 'PolicyForge';
        d.code = p.group.status;
        add(p.file, d);
      }
    }
    const rejected = model.lastRejected;
    if (rejected) {
      for (const p of buildProblems(rejected.data)) {
        const blocking = p.severity === 'error';
        const d = new vscode.Diagnostic(range(p.line, p.column), blocking ? `${p.message} (the submit was rejected: the policy does not build)` : p.message, blocking ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning);
        d.source = 'PolicyForge build';
        d.code = rejected.reason;
        add(p.file, d);
      }
    }
    for (const [file, list] of byFile) collection.set(vscode.Uri.file(file), list);
  };
  paint();
  return vscode.Disposable.from(collection, session.onDidChange(paint));
}
