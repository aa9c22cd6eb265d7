/**
 * MuJoCo scenes in 3D with three.js: the model's geoms (planes, spheres, capsules, ellipsoids,
 * cylinders, boxes, meshes) posed by forward kinematics from each step's recorded qpos, the
 * task's goal markers, a camera that follows the tracked body (the torso), and orbit (drag) and
 * zoom (wheel) per scene view.
 *
 * The renderer contract draws into a 2D canvas, so one shared WebGL canvas renders each view and
 * is copied into it: both sides of a comparison go through the same context. An episode's first
 * snapshot carries the scene (see src/envs/mujoco/scene.ts); later ones are only `{ qpos }`:
 * `prepare` links every snapshot of a side to its first one's scene.
 */
import {
  AmbientLight, BoxGeometry, BufferGeometry, CapsuleGeometry, Color, CylinderGeometry, DirectionalLight, DoubleSide, Float32BufferAttribute,
  GridHelper, Mesh, MeshPhongMaterial, PerspectiveCamera, PlaneGeometry, Scene, SphereGeometry, Vector3, WebGLRenderer, type Material,
} from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { GEOM, SCENE_FORMAT, type MujocoScene, type SceneGeom, type SceneMesh } from '../../../src/protocol/mujocoScene';
import { Kinematics } from './mujocoKinematics';
import { drawMessage, numbers, type SceneContext, type SceneFrame, type SceneRenderer } from './registry';

/** A plane of size 0 is infinite in MuJoCo: drawn this far (m) each way. */
const INFINITE_PLANE = 50;

interface Built {
  scene: Scene;
  kin: Kinematics;
  /** Scene-geom index → its three.js object. */
  objects: (Mesh | null)[];
}

interface View {
  camera: PerspectiveCamera;
  controls: OrbitControls;
  /** The arguments of the last draw, to redraw when the user orbits or zooms. */
  last: { sc: SceneContext; snapshot: unknown; frame: SceneFrame } | null;
  scene: MujocoScene | null;
  /** The tracked point last drawn: the camera moves with it, keeping the user's orbit. */
  target: Vector3 | null;
}

const built = new WeakMap<MujocoScene, Built>();
const views = new WeakMap<HTMLCanvasElement, View>();
/** Each recorded snapshot → the scene of its episode (from `prepare`). */
const sceneOf = new WeakMap<object, MujocoScene>();
let gl: WebGLRenderer | null | undefined;

function glRenderer(): WebGLRenderer | null {
  if (gl === undefined) {
    try {
      gl = new WebGLRenderer({ canvas: document.createElement('canvas'), antialias: true, preserveDrawingBuffer: true });
    } catch {
      gl = null;
    }
  }
  return gl;
}

function isScene(v: unknown): v is MujocoScene {
  if (typeof v !== 'object' || v === null) return false;
  const s = v as Partial<MujocoScene>;
  return s.format === SCENE_FORMAT && typeof s.nq === 'number' && Array.isArray(s.qpos0) && Array.isArray(s.bodies) && Array.isArray(s.geoms) && Array.isArray(s.meshes) && Array.isArray(s.markers);
}

const colour = (rgba: number[]): { color: Color; opacity: number } => ({ color: new Color(rgba[0] ?? 0.5, rgba[1] ?? 0.5, rgba[2] ?? 0.5), opacity: rgba[3] ?? 1 });

function material(rgba: number[]): Material {
  const { color, opacity } = colour(rgba);
  return new MeshPhongMaterial({ color, transparent: opacity < 1, opacity, shininess: 20, flatShading: true, side: DoubleSide });
}

function meshGeometry(m: SceneMesh): BufferGeometry {
  const g = new BufferGeometry();
  // Scene meshes carry whole millimetres.
  g.setAttribute('position', new Float32BufferAttribute(m.vert.map((v) => v / 1000), 3));
  g.setIndex(m.face);
  g.computeVertexNormals();
  return g;
}

/** MuJoCo's capsules and cylinders run along their local z; three.js builds them along y. */
function alongZ(g: BufferGeometry): BufferGeometry {
  return g.rotateX(Math.PI / 2);
}

function geomObject(g: SceneGeom, meshes: SceneMesh[]): Mesh | null {
  const [a = 0, b = 0, c = 0] = g.size;
  switch (g.type) {
    case GEOM.plane: {
      const w = a > 0 ? 2 * a : 2 * INFINITE_PLANE;
      const h = b > 0 ? 2 * b : 2 * INFINITE_PLANE;
      const plane = new Mesh(new PlaneGeometry(w, h), material(g.rgba));
      // A grid makes motion over a uniform floor visible while the camera follows the body.
      const grid = new GridHelper(Math.max(w, h), Math.round(Math.max(w, h) / (Math.max(w, h) > 10 ? 1 : 0.1)), 0x555555, 0x555555);
      grid.rotateX(Math.PI / 2);
      grid.position.z = 0.001;
      (grid.material as Material).transparent = true;
      (grid.material as Material).opacity = 0.5;
      plane.add(grid);
      return plane;
    }
    case GEOM.sphere:
      return new Mesh(new SphereGeometry(a, 20, 14), material(g.rgba));
    case GEOM.ellipsoid: {
      const m = new Mesh(new SphereGeometry(1, 20, 14).scale(a, b, c), material(g.rgba));
      return m;
    }
    case GEOM.capsule:
      return new Mesh(alongZ(new CapsuleGeometry(a, 2 * b, 6, 16)), material(g.rgba));
    case GEOM.cylinder:
      return new Mesh(alongZ(new CylinderGeometry(a, a, 2 * b, 20)), material(g.rgba));
    case GEOM.box:
      return new Mesh(new BoxGeometry(2 * a, 2 * b, 2 * c), material(g.rgba));
    case GEOM.mesh: {
      const m = g.mesh === undefined ? undefined : meshes[g.mesh];
      return m ? new Mesh(meshGeometry(m), material(g.rgba)) : null;
    }
    default:
      return null;
  }
}

function build(s: MujocoScene): Built {
  let b = built.get(s);
  if (b) return b;
  const scene = new Scene();
  scene.add(new AmbientLight(0xffffff, 0.55));
  const sun = new DirectionalLight(0xffffff, 1.6);
  sun.position.set(2, -3, 6);
  scene.add(sun);
  const objects = s.geoms.map((g) => geomObject(g, s.meshes));
  for (const o of objects) if (o) scene.add(o);
  for (const m of s.markers) {
    const marker = new Mesh(new SphereGeometry(m.radius, 20, 14), material(m.rgba));
    marker.position.set(m.pos[0] ?? 0, m.pos[1] ?? 0, m.pos[2] ?? 0);
    scene.add(marker);
  }
  b = { scene, kin: new Kinematics(s), objects };
  built.set(s, b);
  return b;
}

function viewFor(canvas: HTMLCanvasElement): View {
  let v = views.get(canvas);
  if (v) return v;
  const camera = new PerspectiveCamera(45, 1.6, 0.01, 200);
  camera.up.set(0, 0, 1);
  const controls = new OrbitControls(camera, canvas);
  controls.enableDamping = false;
  const view: View = { camera, controls, last: null, scene: null, target: null };
  controls.addEventListener('change', () => {
    if (view.last) paint(view, view.last.sc, view.last.snapshot);
  });
  views.set(canvas, view);
  v = view;
  return v;
}

/** Places the camera for a newly shown scene as MuJoCo's free camera would: distance, azimuth, elevation. */
function frameCamera(view: View, s: MujocoScene, target: Vector3): void {
  const d = s.distance;
  const az = ((s.azimuth ?? 90) * Math.PI) / 180;
  const el = ((s.elevation ?? -20) * Math.PI) / 180;
  // The camera looks along (cos az cos el, sin az cos el, sin el) and sits d behind the target.
  view.camera.position.set(target.x - d * Math.cos(az) * Math.cos(el), target.y - d * Math.sin(az) * Math.cos(el), target.z - d * Math.sin(el));
  view.controls.target.copy(target);
  view.camera.lookAt(target);
  view.controls.enablePan = s.track < 0;
}

function paint(view: View, sc: SceneContext, snapshot: unknown): void {
  const s = view.scene;
  const qpos = numbers((snapshot as { qpos?: unknown } | null)?.qpos, s?.nq ?? 1);
  const renderer = glRenderer();
  if (!s || !qpos) return drawMessage(sc, 'No MuJoCo state in this step');
  if (!renderer) return drawMessage(sc, 'The 3D view needs WebGL, which this panel does not have');
  const b = build(s);
  b.kin.update(qpos);
  b.objects.forEach((o, g) => {
    if (!o) return;
    o.position.set(b.kin.gpos[3 * g] as number, b.kin.gpos[3 * g + 1] as number, b.kin.gpos[3 * g + 2] as number);
    o.quaternion.set(b.kin.gquat[4 * g + 1] as number, b.kin.gquat[4 * g + 2] as number, b.kin.gquat[4 * g + 3] as number, b.kin.gquat[4 * g] as number);
  });
  const target = s.track >= 0
    ? new Vector3(b.kin.xpos[3 * s.track] as number, b.kin.xpos[3 * s.track + 1] as number, s.lookat[2] ?? 0)
    : new Vector3(s.lookat[0] ?? 0, s.lookat[1] ?? 0, s.lookat[2] ?? 0);
  if (s.track >= 0) target.z = Math.max(target.z, (b.kin.xpos[3 * s.track + 2] as number) * 0.6);
  if (view.target === null) frameCamera(view, s, target);
  else if (s.track >= 0) {
    // Follow: move camera and orbit centre by the tracked body's displacement.
    const delta = target.clone().sub(view.target);
    view.camera.position.add(delta);
    view.controls.target.copy(target);
    view.camera.lookAt(target);
  }
  view.target = target;
  view.camera.aspect = sc.width / sc.height;
  view.camera.updateProjectionMatrix();
  const dpr = window.devicePixelRatio || 1;
  renderer.setPixelRatio(dpr);
  renderer.setSize(sc.width, sc.height, false);
  renderer.setClearColor(new Color(sc.theme.background));
  renderer.render(b.scene, view.camera);
  sc.ctx.drawImage(renderer.domElement, 0, 0, sc.width, sc.height);
}

export const mujocoRenderer: SceneRenderer = {
  family: 'mujoco',
  stepsPerSecond: 25,
  aspect: 1.6,
  describe: (snap) => {
    const q = numbers((snap as { qpos?: unknown } | null)?.qpos, 1);
    return q ? `MuJoCo state with ${q.length} joint positions; first ${q.slice(0, 3).map((x) => x.toFixed(2)).join(', ')}` : 'no MuJoCo state';
  },
  prepare(snapshots) {
    const carried = (snapshots[0] as { scene?: unknown } | null)?.scene;
    if (!isScene(carried)) return;
    for (const snap of snapshots) if (typeof snap === 'object' && snap !== null) sceneOf.set(snap, carried);
  },
  draw(sc, snapshot, frame) {
    const view = viewFor(sc.ctx.canvas);
    const carried = typeof snapshot === 'object' && snapshot !== null ? sceneOf.get(snapshot) ?? (snapshot as { scene?: unknown }).scene : undefined;
    const scene = isScene(carried) ? carried : null;
    if (view.scene !== scene) view.target = null;
    view.scene = scene;
    view.last = { sc, snapshot, frame };
    paint(view, sc, snapshot);
  },
};
