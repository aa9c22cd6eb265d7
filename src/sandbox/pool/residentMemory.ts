/** Resident memory of a process in MiB, from /proc (Linux); null where that is not available. */
import { readdirSync, readFileSync } from 'node:fs';

const PAGE_MB = 4096 / (1024 * 1024);

export function residentMb(pid: number): number | null {
  if (process.platform !== 'linux') return null;
  try {
    const statm = readFileSync(`/proc/${pid}/statm`, 'utf8');
    const pages = Number(statm.split(' ')[1]);
    return Number.isFinite(pages) ? pages * PAGE_MB : null;
  } catch {
    return null;
  }
}

/** The most resident memory the process has had so far (VmHWM), in MiB; null where /proc cannot say. */
export function peakResidentMb(pid: number | 'self'): number | null {
  if (process.platform !== 'linux') return null;
  try {
    const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/**
 * Processes whose parent is `parent` and whose command line contains `command` (any, when
 * omitted), from /proc (Linux; empty elsewhere): how the benchmarks and tests find a pool's or a
 * runner's sandbox workers (`command` 'sandboxWorker') to read their memory.
 */
export function childProcesses(parent: number, command?: string): number[] {
  if (process.platform !== 'linux') return [];
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Field 4 (ppid) follows the command in parentheses, which may itself hold spaces.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent && (command === undefined || readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(command))) out.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}
