/** Stage timings on stderr when POLICYFORGE_TRACE is set: where a submit's time goes, without a profiler. */
export function trace(message: string): void {
  if (process.env.POLICYFORGE_TRACE) process.stderr.write(`[trace] ${message}\n`);
}

