/** Types of scripts/mujocoEngine.mjs (the build's split of the MuJoCo package into dist/mujoco/). */
export function writeMujocoEngine(outDir: string, fromDir?: string): { version: string; wasmBytes: number; loaderBytes: number } | undefined;
