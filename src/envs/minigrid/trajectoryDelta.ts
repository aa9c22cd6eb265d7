/**
 * Records a MiniGrid episode as `minigrid-delta/1` (src/protocol/minigridTrajectory.ts): the
 * world after reset once, then per step the pose and whatever else the step changed. The
 * sandbox's trajectory recorder asks the environment for one of these (`deltaRecorder()`).
 *
 * It runs on every recorded step, so it compares the packed cell encodings and the visibility
 * bytes it kept, and builds text only for what changed.
 */
import { MINIGRID_DELTA_FORMAT, viewRowsOf } from '../../protocol/minigridTrajectory';
import type { MiniGridEnv } from './minigridEnv';
import { VIEW_CELLS } from './view';
import { encodeObject, worldSnapshot } from './worldState';

export class MiniGridDeltaRecorder {
  readonly format = MINIGRID_DELTA_FORMAT;
  /** Packed encoding of each cell as last written, index x*H+y. */
  private readonly cells: Int32Array;
  private carrying = 0;
  private readonly view = new Uint8Array(VIEW_CELLS);

  constructor(private readonly env: MiniGridEnv) {
    this.cells = new Int32Array(env.width * env.height);
  }

  /** The header's world: the snapshot after reset plus the visibility rows behind the first observation. */
  start(): unknown {
    const env = this.env;
    const h = env.height;
    for (let x = 0; x < env.width; x++) for (let y = 0; y < h; y++) this.cells[x * h + y] = env.encodingAt(x, y);
    this.carrying = env.carrying;
    this.view.set(env.viewMask);
    return { ...worldSnapshot(env), view: viewRowsOf(env.viewMask) };
  }

  /** The fields after `action`/`reward`/flags/info of the step just taken, each starting with a comma. */
  step(): string {
    const env = this.env;
    let out = `,"agent":[${env.agentX},${env.agentY},${env.agentDir}]`;
    const h = env.height;
    let cells = '';
    for (let x = 0; x < env.width; x++) {
      for (let y = 0; y < h; y++) {
        const e = env.encodingAt(x, y);
        if (e === this.cells[x * h + y]) continue;
        this.cells[x * h + y] = e;
        cells += `${cells === '' ? '' : ','}[${x},${y},${e & 0xff},${(e >> 8) & 0xff},${e >> 16}]`;
      }
    }
    if (cells !== '') out += `,"cells":[${cells}]`;
    // A carried object cannot change while carried: a new id is the only change there is.
    if (env.carrying !== this.carrying) {
      this.carrying = env.carrying;
      out += `,"carrying":${env.carrying === 0 ? 'null' : JSON.stringify(encodeObject(env, env.carrying))}`;
    }
    const mask = env.viewMask;
    for (let c = 0; c < VIEW_CELLS; c++) {
      if (mask[c] === this.view[c]) continue;
      this.view.set(mask);
      out += `,"view":[${viewRowsOf(mask).join(',')}]`;
      break;
    }
    return out;
  }
}
