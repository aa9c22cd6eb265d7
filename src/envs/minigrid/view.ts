/**
 * The egocentric view (MiniGrid's gen_obs / process_vis), apart from the environment class
 * because it is the hot path: free functions over typed arrays with literal sizes (V = 7), the
 * form V8 optimizes best. `minigridEnv.ts` owns the buffers and decides when to recompute.
 */
import { DIR_DX, DIR_DY, VIEW_SIZE } from './constants';

/** Cells in the 7×7 view, index i*7+j (i = view x, j = view y). */
export const VIEW_CELLS = VIEW_SIZE * VIEW_SIZE;

// Module-local copies: imported bindings can compile to getters, which the hot path cannot afford.
const VS = VIEW_SIZE;
const DX: readonly number[] = [...DIR_DX];
const DY: readonly number[] = [...DIR_DY];

/**
 * For each direction d and view cell c, the offset from the agent's cell index to the world
 * cell seen there, at `d * VIEW_CELLS + c`, for a padded world of row length `stride`.
 */
export function viewOffsetTable(stride: number): Int32Array<ArrayBuffer> {
  const off = new Int32Array(4 * VIEW_CELLS);
  for (let d = 0; d < 4; d++) {
    const dx = DX[d]!;
    const dy = DY[d]!;
    const fwd = dx + dy * stride;
    const right = -dy + dx * stride;
    for (let i = 0; i < VS; i++) {
      for (let j = 0; j < VS; j++) off[d * VIEW_CELLS + i * VS + j] = fwd * (VS - 1 - j) + right * (i - 3);
    }
  }
  return off;
}

/**
 * gen_obs: cut the rotated 7×7 window, process_vis, carried object in the agent's cell, encode.
 * Cells are indexed i*7+j (i = view x, j = view y); the agent's cell is 27 = (3, 6).
 * Visibility is MiniGrid's process_vis done on 7-bit rows (bit i = column i).
 */
export function computeView(
  cells: Int32Array,
  off: Int32Array,
  base: number,
  d0: number,
  objClear: Uint8Array,
  enc: Int32Array,
  seeThroughWalls: boolean,
  carrying: number,
  ids: Int32Array,
  rows: Int32Array,
  mask: Uint8Array,
  view: DataView,
): void {
  // Row j = 6 (the agent's) first; each row's visibility seeds the row beyond it.
  let seed = 1 << 3;
  for (let j = 6; j >= 0; j--) {
    let cl = 0;
    for (let i = 0, c = j; i < 7; i++, c += 7) {
      const id = cells[base + off[d0 + c]!]!;
      ids[c] = id;
      cl |= objClear[id]! << i;
    }
    if (seeThroughWalls) {
      rows[j] = 0x7f;
    } else {
      const r = visRow(seed, cl);
      rows[j] = r & 0x7f;
      seed = r >> 8;
    }
  }
  // The agent sees what it carries in its own cell; the agent itself is never drawn.
  ids[27] = carrying;
  for (let i = 0, c = 0, o = 0; i < 7; i++) {
    for (let j = 0; j < 7; j++, c++, o += 3) {
      const visible = (rows[j]! >> i) & 1;
      mask[c] = visible;
      view.setUint32(o, visible === 0 ? 0 : enc[ids[c]!]!, true);
    }
  }
}

/**
 * One row of process_vis. `m` = cells of row j already visible, `cl` = cells that do not block
 * sight. Left-to-right pass then right-to-left pass, each spreading along the row through
 * see-through cells and into the next row (same and neighbouring column). Returns the row's
 * visibility in bits 0-6 and the seed of row j-1 in bits 8-14.
 */
function visRow(m: number, cl: number): number {
  for (let i = 0; i < 6; i++) m |= (((m & cl) >> i) & 1) << (i + 1);
  let a = m & cl & 0x3f;
  let next = a | (a << 1);
  for (let i = 6; i > 0; i--) m |= (((m & cl) >> i) & 1) << (i - 1);
  a = m & cl & 0x7e;
  next |= a | (a >> 1);
  return m | ((next & 0x7f) << 8);
}
