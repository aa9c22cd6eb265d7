/** The short EditSummary that goes into summary.json `edit`, from a full EditAnalysis. */
import type { EditAnalysis } from '../protocol/analysis';
import type { EditSummary } from '../protocol/feedback';

/** Details beyond this many lines are folded into one "… and N more" line. */
export const MAX_SUMMARY_DETAILS = 20;

export function toEditSummary(analysis: EditAnalysis, parent: number | null, maxDetails = MAX_SUMMARY_DETAILS): EditSummary {
  const d = analysis.details;
  const details = d.length <= maxDetails ? [...d] : [...d.slice(0, maxDetails - 1), `… and ${d.length - maxDetails + 1} more`];
  return {
    class: analysis.class,
    parent,
    linesAdded: analysis.size.linesAdded,
    linesRemoved: analysis.size.linesRemoved,
    sizeBin: analysis.size.bin,
    details,
  };
}

/** The edit of a run's first submission: nothing to compare against. */
export function initialEditSummary(): EditSummary {
  return { class: 'initial', parent: null, linesAdded: 0, linesRemoved: 0, sizeBin: 'none', details: ['first submission'] };
}
