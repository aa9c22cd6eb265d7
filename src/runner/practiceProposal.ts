/**
 * The proposer over a live run, for every client (CLI `propose`, the MCP tool, VS Code's Submit
 * for Practice…): reads the latest run submission's skill rates through the protocol, proposes
 * the next training configuration, and writes it where `submit --config` reads it. Charges nothing.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { EnvRegistry } from '../envs/core/registry';
import { proposeConfig, ProposalError, type Proposal } from '../skills/training/proposer';
import type { RunnerClient } from './client';

// Clients (the CLI, the MCP server) reach the proposer's types through the runner, their layer below.
export { ProposalError, type Proposal } from '../skills/training/proposer';

/** Where a proposal is written unless told otherwise (relative to the workspace). */
export const PROPOSAL_FILE = 'practice/proposal.json';

/** The proposal from submission `from` (default: the latest run submission; practice ones are skipped). */
export async function proposeFor(client: Pick<RunnerClient, 'info' | 'status' | 'feedback'>, registry: () => Promise<EnvRegistry> | EnvRegistry, from?: number): Promise<{ proposal: Proposal; from: number }> {
  const [info, status] = await Promise.all([client.info(), client.status()]);
  const n = from ?? Math.max(0, ...status.history.map((h) => h.submission));
  if (n === 0) throw new ProposalError('no run submission yet: the proposer reads a submission’s skill rates, so submit first');
  const summary = await client.feedback(n);
  if (summary.practice) throw new ProposalError(`submission ${n} is a practice submission; the proposer reads a run submission’s skill rates`);
  const def = (await registry()).get(info.envId);
  return { proposal: proposeConfig(def, info.params, summary.skills), from: n };
}

/** Writes the proposal's configuration where `submit --config` reads it; returns the absolute path. */
export function writeProposal(workspace: string, proposal: Proposal, out?: string): string {
  const file = out !== undefined ? path.resolve(out) : path.join(workspace, PROPOSAL_FILE);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(proposal.config, null, 2)}\n`);
  return file;
}
