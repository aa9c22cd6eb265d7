/** Line counts and syntax errors of a parsed module. */
import type { Ts, TsSourceFile } from './engine';

/**
 * Lines holding at least one token (comments and blank lines do not count), found with the
 * compiler's scanner so a line with only `}` counts and a line with only a comment does not.
 * Multi-line tokens (template strings) count every line they span.
 */
export function countSourceLines(ts: Ts, sf: TsSourceFile, text: string): { sourceLines: number; totalLines: number } {
  const starts = sf.getLineStarts();
  const totalLines = text.length === 0 ? 0 : starts.length - (text.endsWith('\n') ? 1 : 0);
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
  let line = 0;
  let lastCounted = -1;
  let count = 0;
  const lineAt = (pos: number): number => {
    while (line + 1 < starts.length && starts[line + 1]! <= pos) line++;
    return line;
  };
  const K = ts.SyntaxKind;
  // Brace depth at each open template substitution, so `}` resumes the template instead of
  // being read as a brace (the scanner alone does not know it is inside a template).
  const templates: number[] = [];
  let braces = 0;
  for (let t = scanner.scan(); t !== K.EndOfFileToken; t = scanner.scan()) {
    if (t === K.TemplateHead) templates.push(braces);
    else if (t === K.OpenBraceToken) braces++;
    else if (t === K.CloseBraceToken) {
      if (templates.length > 0 && templates[templates.length - 1] === braces) {
        if (scanner.reScanTemplateToken(false) === K.TemplateTail) templates.pop();
      } else braces--;
    }
    const first = lineAt(scanner.getTokenStart());
    const last = lineAt(Math.max(scanner.getTokenStart(), scanner.getTokenEnd() - 1));
    // lineAt only moves forward; `last` may have advanced past later tokens' lines only within this token.
    for (let l = Math.max(first, lastCounted + 1); l <= last; l++) count++;
    lastCounted = Math.max(lastCounted, last);
  }
  return { sourceLines: count, totalLines };
}

/** Parse errors the compiler recovered from (the tree is still analysed). */
export function syntaxErrors(sf: TsSourceFile): { line: number; message: string }[] {
  const diagnostics = (sf as TsSourceFile & { parseDiagnostics?: readonly { start?: number; messageText: unknown }[] }).parseDiagnostics ?? [];
  return diagnostics.map((d) => ({
    line: d.start === undefined ? 0 : sf.getLineAndCharacterOfPosition(d.start).line + 1,
    message: typeof d.messageText === 'string' ? d.messageText : 'syntax error',
  }));
}
