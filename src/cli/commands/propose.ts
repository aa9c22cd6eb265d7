/**
 * `policyforge propose`: the built-in proposer's next training configuration, from the skill
 * rates of the latest run submission (or `--from N`), written as a config file for
 * `policyforge submit --config FILE`. It charges nothing.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TrainingConfigSchema, type TrainingConfig } from '../../protocol/training';
import { describeZodError } from '../../protocol/run';
import { PROPOSAL_FILE, ProposalError, proposeFor, writeProposal } from '../../runner/practiceProposal';
import { practiceParamsText } from '../../stats/practiceText';
import { parse, parseIntArg } from '../args';
import { ExitCode, UsageError, type CliCommand } from '../command';
import { fail, printJson, withClient } from './runClient';

/** Reads a `--config` file: JSON in the TrainingConfig shape. A bad file is an argument error (exit 2). */
export function readTrainingConfig(file: string): TrainingConfig {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read the training configuration ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${file} is not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  const parsed = TrainingConfigSchema.safeParse(value);
  if (!parsed.success) throw new UsageError(`${file} is not a training configuration ({ "params": { … }, "env"?, "skill"?, "reason"? }): ${describeZodError(parsed.error)}`);
  return parsed.data;
}

export const proposeCommand: CliCommand = {
  name: 'propose',
  summary: 'Propose a training configuration for the weakest skill (a file for `submit --config`; charges nothing)',
  usage:
    `policyforge propose [--from N] [--out FILE] [--dir DIR] [--json]\n\n` +
    `  --from N    read the skill rates of submission N (default: the latest run submission)\n` +
    `  --out FILE  where to write the configuration (default: ${PROPOSAL_FILE} in the workspace)`,
  async run(argv) {
    const { values } = parse(argv, { from: { type: 'string' }, out: { type: 'string' }, dir: { type: 'string' }, json: { type: 'boolean' } }, false);
    const from = values.from === undefined ? undefined : parseIntArg('from', values.from, 0, 1);
    const json = values.json ?? false;
    return withClient('propose', values.dir, json, async ({ client, workspace }) => {
      let result;
      try {
        // The environments load only when a proposal is asked for.
        result = await proposeFor(client, async () => (await import('../../envs')).createRegistry(), from);
      } catch (e) {
        if (!(e instanceof ProposalError)) throw e;
        fail('propose', json, e.message, 'no_proposal');
        return ExitCode.failed;
      }
      const { proposal } = result;
      const file = writeProposal(workspace, proposal, values.out);
      const shown = path.relative(process.cwd(), file) || file;
      if (json) printJson({ ok: true, file, from: result.from, config: proposal.config, skill: proposal.skill, reason: proposal.reason });
      else {
        process.stdout.write(
          `${proposal.reason}\n` +
            `  from submission ${result.from}: ${proposal.skill ? `${proposal.skill.label} ${Math.round(proposal.skill.mean * 100)}%` : 'every skill strong'}\n` +
            `  configuration: ${practiceParamsText(proposal.config.params)}\n` +
            `  written to ${shown}; practise with: policyforge submit --config ${shown} --episodes 8\n`,
        );
      }
      return ExitCode.ok;
    });
  },
};
