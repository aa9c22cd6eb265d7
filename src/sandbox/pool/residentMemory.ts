/** Resident memory of a process in MiB, from /proc (Linux); null where that is not available. */
import { readFileSync } from 'node:fs';

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
