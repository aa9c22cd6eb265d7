/**
 * Type errors of a policy, reported but never blocking a build. The checker is TypeScript as
 * bundled with ts-morph, loaded on first use only: it costs about a second to start, which a
 * bundle build that only needs esbuild should not pay.
 */
import * as path from 'node:path';
import type { BundleDiagnostic } from '../types';
import { toWorkspacePath } from './policyFolder';

type TsMorph = typeof import('ts-morph');
let tsMorph: Promise<TsMorph> | undefined;

/** Diagnostics are capped so one broken file cannot flood feedback. */
const MAX_TYPE_DIAGNOSTICS = 50;

/** `files` are workspace-relative `.ts` paths under `policy/` (env.d.ts included when present). */
export async function typeCheck(root: string, files: readonly string[]): Promise<BundleDiagnostic[]> {
  // require, not import(): a bundle's native import() of the CommonJS ts-morph bundle would see
  // only its default export.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy on purpose, see above
  tsMorph ??= Promise.resolve().then(() => require('ts-morph') as TsMorph);
  const { Project, ts } = await tsMorph;
  const project = new Project({
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2022.d.ts'],
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      strict: true,
      noEmit: true,
      resolveJsonModule: true,
      types: [],
      skipLibCheck: true,
    },
    skipAddingFilesFromTsConfig: true,
  });
  for (const f of files) project.addSourceFileAtPath(path.join(root, f));
  const out: BundleDiagnostic[] = [];
  for (const d of project.getPreEmitDiagnostics()) {
    if (out.length >= MAX_TYPE_DIAGNOSTICS) break;
    const sf = d.getSourceFile();
    const file = sf ? toWorkspacePath(root, sf.getFilePath()) : 'policy/';
    if (sf && !file.startsWith('policy/')) continue;
    const start = d.getStart();
    const lc = sf && start !== undefined ? sf.getLineAndColumnAtPos(start) : { line: 0, column: 0 };
    out.push({
      file,
      line: lc.line,
      column: lc.column,
      message: ts.flattenDiagnosticMessageText(d.compilerObject.messageText, '\n'),
      severity: 'error',
      kind: 'type',
    });
  }
  return out;
}
