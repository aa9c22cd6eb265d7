/**
 * How records cross the IPC channel. The channel uses V8's serializer, which copies long strings
 * (the trajectory lines) as they are, where JSON would escape every quote in them; but it
 * (de)serializes objects field by field, ~3× slower than JSON for a message of small records.
 * So the records go as one JSON string without their trajectory lines, and the lines as a
 * separate array of strings.
 */
import type { EpisodeRecord } from '../../protocol/episodes';

export interface FinishedRecord {
  job: number;
  record: EpisodeRecord;
}

export type WireRecords =
  | {
      /** JSON of the FinishedRecord list, every `trajectory.stepsJsonl` empty. */
      json: string;
      /** The trajectory lines, in the same order. */
      steps: string[];
    }
  /** As they are, when a return is not finite (JSON would make it null). */
  | { records: FinishedRecord[] };

export function packRecords(done: readonly FinishedRecord[]): WireRecords {
  if (!done.every((d) => Number.isFinite(d.record.return))) return { records: [...done] };
  const steps = done.map((d) => d.record.trajectory.stepsJsonl);
  for (const d of done) d.record.trajectory.stepsJsonl = '';
  const json = JSON.stringify(done);
  done.forEach((d, i) => {
    d.record.trajectory.stepsJsonl = steps[i] as string;
  });
  return { json, steps };
}

export function unpackRecords(wire: WireRecords): FinishedRecord[] {
  if ('records' in wire) return wire.records;
  const done = JSON.parse(wire.json) as FinishedRecord[];
  done.forEach((d, i) => {
    d.record.trajectory.stepsJsonl = wire.steps[i] ?? '';
  });
  return done;
}
