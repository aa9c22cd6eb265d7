/**
 * The MuJoCo engine: the official WebAssembly build (`mujoco-js`), instantiated at most once per
 * process. Instantiation is asynchronous, environments are created synchronously, so a process
 * awaits `loadMujoco()` (the family's `load`, which the sandbox worker awaits before the first
 * episode of a MuJoCo id) and `mujoco()` hands out the ready engine afterwards.
 *
 * Policies never see the engine: it lives on the worker's trusted side and the policy realm only
 * receives observation arrays.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vm from 'node:vm';
import type { MainModule, MjModel } from 'mujoco-js';
import { mujocoAssetsDir, splitEngine, type SplitEngine } from './engineFiles';
import { MODEL_FILES } from './assets/models.generated';

export class MujocoNotLoadedError extends Error {
  override name = 'MujocoNotLoadedError';
}

let engine: MainModule | undefined;
let loading: Promise<MainModule> | undefined;
let loadError: string | undefined;

/** Instantiates the engine once; later calls return the same promise. */
export function loadMujoco(): Promise<MainModule> {
  loading ??= (async () => {
    const m = await instantiateEngine();
    m.FS.mkdir('/policyforge');
    engine = m;
    return m;
  })();
  loading.catch((e: unknown) => {
    // A failed load may be retried (the next caller gets a fresh attempt and its own error).
    loadError = e instanceof Error ? e.message : String(e);
    loading = undefined;
  });
  return loading;
}

/** The loaded engine; throws when `loadMujoco()` has not finished in this process. */
export function mujoco(): MainModule {
  if (!engine) {
    throw new MujocoNotLoadedError(
      loadError !== undefined
        ? `the MuJoCo engine failed to load: ${loadError}`
        : 'the MuJoCo engine is not loaded in this process: await loadMujoco() (the environment family\'s load()) before the first reset()',
    );
  }
  return engine;
}

export function isMujocoLoaded(): boolean {
  return engine !== undefined;
}

/** The version string of the loaded engine (e.g. "3.3.8"). */
export function mujocoVersion(): string {
  return mujoco().mj_versionString();
}

/** Compiled models, least recently used first. */
const compiled = new Map<string, MjModel>();
/**
 * Models kept compiled per process. A worker runs one environment id at a time, and the engine's
 * memory never shrinks: evicting the least recently used model lets the next one reuse its memory
 * instead of growing the heap by every model a worker has ever run.
 */
const MODEL_CACHE = 2;
const evictionHooks: ((file: string) => void)[] = [];

/** Runs `hook(file)` before a model is freed (its users park their state and drop their data). */
export function onModelEviction(hook: (file: string) => void): void {
  evictionHooks.push(hook);
}

/**
 * A vendored model file compiled once per process and shared: environments only read the model
 * (each borrows the model's MjData), so one compilation serves every episode. The model's whole
 * vendored folder (included XML, meshes, textures) is written to the engine's in-memory file
 * system for the compilation, so relative `include`, `meshdir` and `texturedir` resolve as in the
 * source repository. Compiling a model beyond MODEL_CACHE frees the least recently used one: callers
 * hold a model only while they use it, or re-fetch it (Simulation does).
 */
export function compiledModel(file: string): MjModel {
  let model = compiled.get(file);
  if (model) {
    if ([...compiled.keys()].at(-1) !== file) {
      compiled.delete(file);
      compiled.set(file, model);
    }
    return model;
  }
  const mj = mujoco();
  if (MODEL_FILES[file] === undefined) throw new Error(`no vendored MuJoCo model ${file}`);
  const files = writeFolder(mj, file.slice(0, file.indexOf('/')));
  try {
    model = mj.MjModel.loadFromXML(`/policyforge/${file}`);
  } finally {
    // The compiled model holds everything it read: the copies would stay in every worker's heap.
    for (const f of files) mj.FS.unlink(f);
  }
  compiled.set(file, model);
  for (const [old, m] of compiled) {
    if (compiled.size <= MODEL_CACHE) break;
    for (const hook of evictionHooks) hook(old);
    compiled.delete(old);
    m.delete();
  }
  return model;
}

/** The vendored files besides the model XML (which MODEL_FILES embeds). */
const BINARY_ASSET = /\.(stl|png)$/;

/** Writes the folder's files to the engine's file system; returns their paths there. */
function writeFolder(mj: MainModule, top: string): string[] {
  const files: string[] = [];
  const put = (rel: string, content: string | Uint8Array): void => {
    mkdirs(mj, `/policyforge/${rel.slice(0, rel.lastIndexOf('/'))}`);
    mj.FS.writeFile(`/policyforge/${rel}`, content);
    files.push(`/policyforge/${rel}`);
  };
  for (const [rel, xml] of Object.entries(MODEL_FILES)) if (rel.startsWith(`${top}/`)) put(rel, xml);
  // Meshes and textures are read from files: as base64 in the bundles they cost every process that loads the environments.
  const assets = path.join(mujocoAssetsDir(), top);
  // A folder without meshes or textures (Gymnasium's models) has no copy in the build.
  for (const rel of existsSync(assets) ? readdirSync(assets, { recursive: true }).map(String) : []) {
    if (BINARY_ASSET.test(rel)) put(`${top}/${rel.split(path.sep).join('/')}`, readFileSync(path.join(assets, rel)));
  }
  return files;
}

function mkdirs(mj: MainModule, dir: string): void {
  let at = '';
  for (const part of dir.split('/').filter(Boolean)) {
    at += `/${part}`;
    try {
      mj.FS.mkdir(at);
    } catch {
      // Exists already.
    }
  }
}

type Factory = (arg?: object) => Promise<MainModule>;

/**
 * A new engine instance (loadMujoco keeps the process's one): from the build's split files when
 * there are (the binary compiled from its own file, so the package's inlined copy is never
 * loaded; engineFiles.ts), else from the package. A plain require keeps the package outside the
 * bundles: Node loads either ES module through require(esm) at run time.
 */
export function instantiateEngine(split: SplitEngine | undefined = splitEngine()): Promise<MainModule> {
  return withCodeGeneration(() => instantiate(split, { print: () => undefined, printErr: () => undefined }));
}

async function instantiate(split: SplitEngine | undefined, options: object): Promise<MainModule> {
  if (!split) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require('mujoco-js') as { default: Factory }).default(options);
  }
  const binary = await WebAssembly.compile(readFileSync(split.wasm));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const factory = (require(split.loader) as { default: Factory }).default;
  // A failed instantiation would otherwise leave the loader waiting for its hook forever.
  let failed: (e: unknown) => void = () => undefined;
  const failure = new Promise<never>((_, reject) => (failed = reject));
  return Promise.race([
    factory({
      ...options,
      // Emscripten's hook: instantiate with the loader's imports, hand back instance and module.
      instantiateWasm(imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void): object {
        WebAssembly.instantiate(binary, imports)
          .then((instance) => receive(instance, binary))
          .catch(failed);
        return {};
      },
    }),
    failure,
  ]);
}

/**
 * The engine's bindings (embind) build their call wrappers with `new Function` while the module
 * initializes. The sandbox worker runs with code generation from strings disallowed in every
 * realm, so for the duration of the load only, `Function` is a constructor from a private context
 * that allows it: the wrappers are created there, and the worker's own realm and the policy realm
 * keep their prohibition. Where code generation is allowed anyway (hosts, tests) nothing changes.
 */
async function withCodeGeneration<T>(load: () => Promise<T>): Promise<T> {
  if (codeGenerationAllowed()) return load();
  const realm = vm.createContext(Object.create(null) as object, { codeGeneration: { strings: true, wasm: true } });
  const global = globalThis as { Function: FunctionConstructor };
  const own = global.Function;
  global.Function = vm.runInContext('Function', realm) as FunctionConstructor;
  try {
    return await load();
  } finally {
    global.Function = own;
  }
}

function codeGenerationAllowed(): boolean {
  try {
    new Function('');
    return true;
  } catch {
    return false;
  }
}

/**
 * Everything an environment's first reset would otherwise spend seconds on: the engine, its
 * model, and a few steps (WebAssembly functions are compiled on their first call), so episodes
 * start inside their deadlines.
 */
export async function prepareModel(file: string): Promise<void> {
  const mj = await loadMujoco();
  const model = compiledModel(file);
  const data = new mj.MjData(model);
  try {
    mj.mj_forward(model, data);
    for (let i = 0; i < 20; i++) mj.mj_step(model, data);
    mj.mj_rnePostConstraint(model, data);
  } finally {
    data.delete();
  }
}
