/**
 * What a replay needs to draw a MuJoCo model: the kinematic tree (bodies and joints), the visible
 * geoms with their shapes and colours, and the meshes. It is static per model, so an episode's
 * first snapshot carries it once and every later snapshot is only `qpos`: the replay re-derives
 * every pose from qpos with the same forward kinematics as MuJoCo (webview-ui/replay/renderers/
 * mujocoKinematics.ts; a unit test checks them against the engine's own poses).
 *
 * Meshes are simplified by vertex clustering so that a scene stays a few dozen kilobytes: the
 * replay is a picture, and the full meshes of the Fetch robot alone are megabytes.
 */
import type { MjModel } from 'mujoco-js';
import { compiledModel, mujoco } from './engine';

import { GEOM, SCENE_FORMAT, type MujocoScene, type SceneBody, type SceneGeom, type SceneJoint, type SceneMesh, type SceneView } from '../../protocol/mujocoScene';

export * from '../../protocol/mujocoScene';

const round = (v: number, digits: number): number => {
  const s = 10 ** digits;
  return Math.round(v * s) / s;
};
const slice = (a: ArrayLike<number>, from: number, n: number, digits = 5): number[] => {
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = round(a[from + i] as number, digits);
  return out;
};

/** The viewer's default: geom groups 0–2 are shown, higher groups are collision-only or hidden. */
const VISIBLE_GROUPS = 3;
/** Grid size of the vertex clustering relative to a mesh's largest extent, at most. */
const MESH_CELLS = 10;
/** A simplified mesh keeps at most this many triangles (coarser grids until it fits). */
const MESH_FACES = 200;

const scenes = new Map<string, Omit<MujocoScene, 'markers'>>();

/** The static scene of a vendored model, computed once per process. */
export function modelScene(file: string, view: SceneView = {}): Omit<MujocoScene, 'markers'> {
  const key = `${file}\n${JSON.stringify(view)}`;
  let scene = scenes.get(key);
  if (!scene) {
    scene = buildScene(compiledModel(file), view);
    scenes.set(key, scene);
  }
  return scene;
}

function buildScene(m: MjModel, view: SceneView): Omit<MujocoScene, 'markers'> {
  const bodies: SceneBody[] = [];
  for (let b = 0; b < m.nbody; b++) {
    const joints: SceneJoint[] = [];
    const adr = m.body_jntadr[b] as number;
    for (let j = adr; j < adr + (m.body_jntnum[b] as number); j++) {
      joints.push({ type: m.jnt_type[j] as number, qposadr: m.jnt_qposadr[j] as number, axis: slice(m.jnt_axis, 3 * j, 3), pos: slice(m.jnt_pos, 3 * j, 3) });
    }
    bodies.push({ parent: m.body_parentid[b] as number, pos: slice(m.body_pos, 3 * b, 3), quat: slice(m.body_quat, 4 * b, 4, 6), joints, mocap: (m.body_mocapid[b] as number) >= 0 });
  }
  const meshes: SceneMesh[] = [];
  const meshIndex = new Map<number, number>();
  const geoms: SceneGeom[] = [];
  for (let g = 0; g < m.ngeom; g++) {
    const type = m.geom_type[g] as number;
    const body = m.geom_bodyid[g] as number;
    if ((m.geom_group[g] as number) >= VISIBLE_GROUPS || bodies[body]?.mocap) continue;
    if (!(Object.values(GEOM) as number[]).includes(type)) continue;
    const mat = m.geom_matid[g] as number;
    // A material's colour wins over the geom's unless the geom sets its own (MuJoCo's rule).
    const geomRgba = slice(m.geom_rgba, 4 * g, 4, 3);
    const rgba = mat >= 0 && isDefaultRgba(geomRgba) ? slice(m.mat_rgba, 4 * mat, 4, 3) : geomRgba;
    if ((rgba[3] as number) === 0) continue;
    const geom: SceneGeom = { body, type, size: slice(m.geom_size, 3 * g, 3), pos: slice(m.geom_pos, 3 * g, 3), quat: slice(m.geom_quat, 4 * g, 4, 6), rgba };
    if (type === GEOM.mesh) {
      const id = m.geom_dataid[g] as number;
      let at = meshIndex.get(id);
      if (at === undefined) {
        at = meshes.length;
        let cells = MESH_CELLS;
        let mesh = simplifiedMesh(m, id, cells);
        while (mesh.face.length / 3 > MESH_FACES && cells > 3) mesh = simplifiedMesh(m, id, --cells);
        meshes.push(mesh);
        meshIndex.set(id, at);
      }
      geom.mesh = at;
    }
    geoms.push(geom);
  }
  const track = view.track === undefined ? -1 : bodyByName(m, view.track);
  return {
    format: SCENE_FORMAT,
    nq: m.nq,
    qpos0: slice(m.qpos0, 0, m.nq),
    bodies,
    geoms,
    meshes,
    track,
    lookat: view.lookat ?? [0, 0, 0],
    distance: view.distance ?? 3,
    azimuth: view.azimuth ?? 90,
    elevation: view.elevation ?? -20,
  };
}

function isDefaultRgba(rgba: number[]): boolean {
  return rgba[0] === 0.5 && rgba[1] === 0.5 && rgba[2] === 0.5 && rgba[3] === 1;
}

function bodyByName(m: MjModel, name: string): number {
  const mj = mujoco();
  const id = mj.mj_name2id(m, mj.mjtObj.mjOBJ_BODY.value, name);
  if (id < 0) throw new Error(`the model has no body named ${name}`);
  return id;
}

/**
 * Vertex clustering: vertices snap to a grid of `cells` cells along the mesh's largest
 * extent, each cell keeps one vertex (the mean of its members), and triangles whose corners
 * collapse are dropped. Shapes stay recognisable at a replay's scale.
 */
function simplifiedMesh(m: MjModel, id: number, cells: number): SceneMesh {
  const vAdr = m.mesh_vertadr[id] as number;
  const vNum = m.mesh_vertnum[id] as number;
  const fAdr = m.mesh_faceadr[id] as number;
  const fNum = m.mesh_facenum[id] as number;
  const verts = m.mesh_vert as Float32Array;
  const faces = m.mesh_face as Int32Array;
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (let v = 0; v < vNum; v++) {
    for (let k = 0; k < 3; k++) {
      const x = verts[3 * (vAdr + v) + k] as number;
      if (x < (lo[k] as number)) lo[k] = x;
      if (x > (hi[k] as number)) hi[k] = x;
    }
  }
  const cell = Math.max((hi[0] as number) - (lo[0] as number), (hi[1] as number) - (lo[1] as number), (hi[2] as number) - (lo[2] as number), 1e-9) / cells;
  const cellOf = new Int32Array(vNum);
  const cellIds = new Map<string, number>();
  const sums: number[][] = [];
  for (let v = 0; v < vNum; v++) {
    const x = verts[3 * (vAdr + v)] as number;
    const y = verts[3 * (vAdr + v) + 1] as number;
    const z = verts[3 * (vAdr + v) + 2] as number;
    const key = `${Math.floor((x - (lo[0] as number)) / cell)},${Math.floor((y - (lo[1] as number)) / cell)},${Math.floor((z - (lo[2] as number)) / cell)}`;
    let c = cellIds.get(key);
    if (c === undefined) {
      c = sums.length;
      cellIds.set(key, c);
      sums.push([0, 0, 0, 0]);
    }
    const s = sums[c] as number[];
    s[0] = (s[0] as number) + x;
    s[1] = (s[1] as number) + y;
    s[2] = (s[2] as number) + z;
    s[3] = (s[3] as number) + 1;
    cellOf[v] = c;
  }
  const vert: number[] = [];
  for (const s of sums) for (let k = 0; k < 3; k++) vert.push(Math.round((1000 * (s[k] as number)) / (s[3] as number)));
  const face: number[] = [];
  const seen = new Set<string>();
  for (let f = 0; f < fNum; f++) {
    const a = cellOf[faces[3 * (fAdr + f)] as number] as number;
    const b = cellOf[faces[3 * (fAdr + f) + 1] as number] as number;
    const c = cellOf[faces[3 * (fAdr + f) + 2] as number] as number;
    if (a === b || b === c || a === c) continue;
    // Clustering folds thin parts onto themselves: one triangle per corner set is enough (drawn double-sided).
    const key = a < b ? (b < c ? `${a},${b},${c}` : a < c ? `${a},${c},${b}` : `${c},${a},${b}`) : a < c ? `${b},${a},${c}` : b < c ? `${b},${c},${a}` : `${c},${b},${a}`;
    if (seen.has(key)) continue;
    seen.add(key);
    face.push(a, b, c);
  }
  return { vert, face };
}
