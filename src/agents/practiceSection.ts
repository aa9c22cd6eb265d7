/** The AGENTS.md section on practice submits (training configurations); empty when the environment declares none. */
import type { EnvDefinition } from '../envs/core/definition';
import { explainTraining } from '../envs/core/training';
import type { RunConfig } from '../runner/config';
import { practiceBudgetOf } from '../runner/practice';
import { PROPOSAL_FILE } from '../runner/practiceProposal';

export function practiceSection(def: EnvDefinition, config: RunConfig, cli: string): string {
  const knobs = explainTraining(def);
  if (knobs.length === 0) return '';
  return `## Practice submits (training configurations)
Besides the budget you have a **practice budget of ${practiceBudgetOf(config)} episodes** for practising a skill on
a changed version of this environment. A training configuration may change only these parameters,
within these bounds (anything else is refused before it runs, uncharged):
${knobs.map((k) => `- ${k}`).join('\n')}

- \`${cli} propose\` reads the latest submission's skill rates and writes the next configuration to
  \`${PROPOSAL_FILE}\`: the weakest skill the task needs first, isolated (a small grid with the key
  next to the door, fewer lava rivers, narrower starting angles…), easier while the skill is weak
  and closer to the real task as it improves, with one sentence saying why. It charges nothing.
- \`${cli} submit --config ${PROPOSAL_FILE} --episodes 8\` runs the current \`policy/\` on practice
  cases of the configured environment (a file of your own works too: \`{ "params": { … } }\`).
  Practice cases are their own episodes: they reveal nothing about training, validation or
  held-out cases.
- Practice feedback is marked practice (\`summary.json\` has \`practice\`; the text says PRACTICE) and
  **never counts**: it is never selected, never the best train mean, never paired against; the
  final validation and assessment always use the unmodified environment. Practise what the
  feedback says is weak, then confirm the fix with an ordinary submit.
- MCP: the \`propose\` tool, and \`submit\` with \`config\`.

`;
}
