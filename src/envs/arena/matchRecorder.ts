/**
 * Match trajectories as the sandbox records them: the side environments' delta recorders write
 * the step lines of the match formats in src/protocol/arenaMatch.ts (`ctf-match/1`,
 * `connect-four-match/1`) straight from the game, so the runner only adds the header and the
 * outcome around them. A recorded step of the side view may hold several moves (Connect Four: our
 * move and the reply), so a line can hold several match lines.
 */
import type { CaptureTheFlagEnv } from './ctf';
import type { ConnectFourEnv } from './connectFour/env';

interface Recorder {
  readonly format: string;
  start(): unknown;
  step(): string;
  line(step: { info: Readonly<Record<string, unknown>> }): string;
}

/** The last line of a step carries the opponent's failure when it ended the game (sideEnv.ts). */
function withFailure(line: string, info: Readonly<Record<string, unknown>>): string {
  const failure = info['opponentFailure'];
  return typeof failure === 'string' ? `${line.slice(0, -1)},"opponentFailure":${JSON.stringify(failure)}}` : line;
}

const r2 = (v: number): number => Math.round(v * 100) / 100;
const r3 = (v: number): number => Math.round(v * 1000) / 1000;

interface CtfSnapshot {
  step: number;
  captures: Record<string, number>;
  agents: { id: string; x: number; y: number; h: number; tagged: boolean; carrying: boolean }[];
  flags: { team: string; x: number; y: number; carrier: string | null }[];
  events: { kind: string; agent: string; other?: string }[];
  field: { length: number; width: number };
}

export function ctfMatchRecorder(game: CaptureTheFlagEnv): Recorder {
  const snap = (): CtfSnapshot => game.snapshot() as CtfSnapshot;
  const row = (s: CtfSnapshot, withEvents: boolean): string => {
    const line: Record<string, unknown> = {
      type: 'step',
      t: s.step,
      agents: s.agents.map((a) => [r2(a.x), r2(a.y), r3(a.h), a.tagged ? 1 : 0, a.carrying ? 1 : 0]),
      flags: Object.fromEntries(s.flags.map((f) => [f.team, [r2(f.x), r2(f.y), f.carrier]])),
      captures: s.captures,
    };
    if (withEvents && s.events.length) line['events'] = s.events.map(({ kind, agent, other }) => (other === undefined ? { kind, agent } : { kind, agent, other }));
    return JSON.stringify(line);
  };
  return {
    format: 'ctf-match/1',
    start: () => {
      const s = snap();
      const cfg = game.config;
      return {
        agents: s.agents.map((a) => a.id),
        field: s.field,
        flagHomes: { blue: [cfg.length * 0.1, cfg.width / 2], red: [cfg.length * 0.9, cfg.width / 2] },
        first: JSON.parse(row(s, false)) as unknown,
      };
    },
    step: () => '',
    line: (step) => withFailure(row(snap(), true), step.info),
  };
}

export function connectFourMatchRecorder(game: ConnectFourEnv): Recorder {
  let written = 0;
  const moves = (): number[] => (game.getState() as { moves: number[] }).moves;
  return {
    format: 'connect-four-match/1',
    start: () => {
      written = 0;
      return { rows: 6, cols: 7 };
    },
    step: () => '',
    line: (step) => {
      const all = moves();
      const out: string[] = [];
      for (; written < all.length; written++) out.push(JSON.stringify({ type: 'step', t: written, mover: written % 2 === 0 ? 'red' : 'yellow', column: all[written] }));
      // An illegal move is not in the list: the line still marks the step.
      if (!out.length) out.push(JSON.stringify({ type: 'step', t: written, mover: written % 2 === 0 ? 'red' : 'yellow', column: -1 }));
      return withFailure(out.join('\n'), step.info);
    },
  };
}
