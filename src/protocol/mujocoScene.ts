/**
 * The MuJoCo replay scene's format (built by src/envs/mujoco/scene.ts), shared with the replay
 * webview: MuJoCo's joint and geom type numbers and the JSON shapes.
 */
export const SCENE_FORMAT = 1;

/** Joint types (mjtJoint). */
export const JOINT = { free: 0, ball: 1, slide: 2, hinge: 3 } as const;
/** Geom types (mjtGeom) the replay draws. */
export const GEOM = { plane: 0, sphere: 2, capsule: 3, ellipsoid: 4, cylinder: 5, box: 6, mesh: 7 } as const;

export interface SceneBody {
  parent: number;
  /** Offset from the parent in the qpos0 configuration, and its rotation (w, x, y, z). */
  pos: number[];
  quat: number[];
  /** Joints of this body, in MuJoCo's order. */
  joints: SceneJoint[];
  /** Mocap bodies are placed by the controller, not by qpos: the replay does not draw them. */
  mocap: boolean;
}

export interface SceneJoint {
  type: number;
  qposadr: number;
  axis: number[];
  pos: number[];
}

export interface SceneGeom {
  body: number;
  type: number;
  /** MuJoCo's geom_size: half-extents (box), radius and half-length (capsule, cylinder), … */
  size: number[];
  pos: number[];
  quat: number[];
  rgba: number[];
  /** Index into `meshes` for mesh geoms. */
  mesh?: number;
}

export interface SceneMesh {
  /** x, y, z per vertex in the mesh frame, in whole millimetres (short JSON). */
  vert: number[];
  /** Three vertex indices per triangle. */
  face: number[];
}

/** A sphere drawn at a fixed place, e.g. the goal of a Fetch task. */
export interface SceneMarker {
  pos: number[];
  radius: number;
  rgba: number[];
}

export interface MujocoScene {
  format: typeof SCENE_FORMAT;
  nq: number;
  qpos0: number[];
  bodies: SceneBody[];
  geoms: SceneGeom[];
  meshes: SceneMesh[];
  /** Body the camera follows (its position), or -1 for a fixed camera. */
  track: number;
  /**
   * Where the camera looks first, from how far (metres) and from which direction: MuJoCo's free
   * camera angles in degrees (azimuth about z from +x, elevation negative when looking down).
   */
  lookat: number[];
  distance: number;
  azimuth: number;
  elevation: number;
  markers: SceneMarker[];
}

/** How a task wants its scene framed. */
export interface SceneView {
  track?: string;
  lookat?: number[];
  distance?: number;
  azimuth?: number;
  elevation?: number;
}
