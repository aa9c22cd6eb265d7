/**
 * Records a MiniGrid episode as `minigrid-delta/1` (src/protocol/minigridTrajectory.ts): the
 * world after reset once, then per step the pose and whatever else the step changed. The
 * sandbox's trajectory recorder asks the environment for one of these (`deltaRecorder()`).
 */
import { MINIGRID_DELTA_FORMAT, viewRowsOf } from '../../protocol/minigridTrajectory';
import type { MiniGridEnv } from './minigridEnv';
import { encodeGrid, encodeObject, worldSnapshot } from './worldState';

export class MiniGridDeltaRecorder {
  readonly format = MINIGRID_DELTA_FORMAT;
  private grid = '';
  private carrying = 'null';
  private view = '';

  constructor(private readonly env: MiniGridEnv) {}

  /** The header's world: the snapshot after reset plus the visibility rows behind the first observation. */
  start(): unknown {
    const env = this.env;
    const snap = worldSnapshot(env);
    const view = viewRowsOf(env.viewMask);
    this.grid = snap.grid;
    this.carrying = JSON.stringify(snap.carrying);
    this.view = view.join(',');
    return { ...snap, view };
  }

  /** The fields after `action`/`reward`/flags/info of the step just taken, each starting with a comma. */
  step(): string {
    const env = this.env;
    let out = `,"agent":[${env.agentX},${env.agentY},${env.agentDir}]`;
    const grid = encodeGrid(env);
    if (grid !== this.grid) {
      const h = env.height;
      const changed: string[] = [];
      for (let k = 0; k < grid.length; k += 3) {
        if (grid[k] === this.grid[k] && grid[k + 1] === this.grid[k + 1] && grid[k + 2] === this.grid[k + 2]) continue;
        const cell = k / 3;
        changed.push(`[${Math.floor(cell / h)},${cell % h},${grid[k]},${grid[k + 1]},${grid[k + 2]}]`);
      }
      out += `,"cells":[${changed.join(',')}]`;
      this.grid = grid;
    }
    const carrying = env.carrying === 0 ? 'null' : JSON.stringify(encodeObject(env, env.carrying));
    if (carrying !== this.carrying) {
      out += `,"carrying":${carrying}`;
      this.carrying = carrying;
    }
    const view = viewRowsOf(env.viewMask).join(',');
    if (view !== this.view) {
      out += `,"view":[${view}]`;
      this.view = view;
    }
    return out;
  }
}
