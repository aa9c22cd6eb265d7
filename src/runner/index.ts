/**
 * The runner's public surface for its clients (CLI, MCP server, agents, VS Code extension).
 * Everything else in src/runner is internal to the run's lifecycle.
 */
export { RunnerClient, RunClientError, type ConnectOptions, type RunClientEvents } from './client';
export { connectOrStart, spawnRunner, runnerEntry, type ReadyLine } from './launch';
export { startRunnerHost, RunnerAlreadyRunning, hasRun, type HostOptions, type RunnerHost } from './host';
export { initWorkspace, type InitResult, type InitOptions } from './workspace';
export { makeRunConfig, type RunConfig, type RunConfigInput } from './config';
export { workspacePaths, submissionName, caseFileName, type WorkspacePaths } from './paths';
export { readRunnerFile, processAlive, type RunnerFile } from './runnerFile';
export { parseCaseRanges, formatCaseRanges } from '../protocol/caseRanges';
