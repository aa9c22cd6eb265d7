/** Memory figures the benches compare against, measured in the same run. */
import { spawnSync } from 'node:child_process';

/** The goal for a sandbox worker with MuJoCo loaded: 150 MB (decimal megabytes), in MiB as /proc reports. */
export const MUJOCO_WORKER_GOAL_MIB = 150e6 / 2 ** 20;

/** Peak resident memory of a bare `node` start, measured by the process itself just before it exits (MiB). */
export function bareNodeMb(): number {
  const r = spawnSync(process.execPath, ['-e', "process.stdout.write(/VmHWM:\\s+(\\d+)/.exec(require('fs').readFileSync('/proc/self/status','utf8'))[1])"], { encoding: 'utf8' });
  return Number(r.stdout) / 1024;
}
