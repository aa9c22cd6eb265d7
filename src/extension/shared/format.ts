/** Number formatting shared by the tree, status bar, CodeLens and hovers (no `vscode` import). */

/** Three significant digits for small magnitudes, one decimal for large ones: 195.3, 0.0123, -12.5. */
export function formatScore(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  const abs = Math.abs(x);
  if (abs >= 100) return x.toFixed(1);
  if (abs >= 1) return x.toFixed(2);
  if (abs === 0) return '0';
  return x.toPrecision(3);
}

export function formatMeanStderr(mean: number, stderr: number): string {
  return `${formatScore(mean)} ± ${formatScore(stderr)}`;
}

export function plural(n: number, word: string, pluralWord = `${word}s`): string {
  return `${n} ${n === 1 ? word : pluralWord}`;
}

/** "0-3, 7, 9-10": compact case list for labels and diagnostics. */
export function formatCaseList(cases: readonly number[]): string {
  const sorted = [...new Set(cases)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === (sorted[j] as number) + 1) j++;
    parts.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(', ');
}

export function submissionLabel(n: number): string {
  return `#${n}`;
}
