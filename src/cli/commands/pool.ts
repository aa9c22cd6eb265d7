/** `policyforge pool [pin|unpin|drop ID]`: an arena run's opponent pool, and the user's say over it. */
import { formatPoolChange, weightsLine } from '../../stats/arenaText';
import { parse } from '../args';
import { ExitCode, UsageError, type CliCommand } from '../command';
import { printJson, withClient } from './runClient';

const ACTIONS = ['pin', 'unpin', 'drop'] as const;

export const poolCommand: CliCommand = {
  name: 'pool',
  summary: 'Arena runs: show the opponent pool, or pin, unpin or drop an opponent',
  usage:
    'policyforge pool [pin ID | unpin ID | drop ID] [--dir DIR] [--json]\n\n' +
    '  (no action)  the pool: opponents, kinds, weights, pins\n' +
    '  pin ID       keep ID in the pool: a promotion into a full pool never retires it, and it cannot be dropped\n' +
    '  unpin ID     undo a pin\n' +
    '  drop ID      remove ID from the pool (not a pinned one, not the last one); later submissions no longer play it',
  async run(argv) {
    const { values, positionals } = parse(argv, { dir: { type: 'string' }, json: { type: 'boolean' } });
    const json = values.json ?? false;
    const [action, opponent, ...extra] = positionals;
    if (action === undefined) {
      return withClient('pool', values.dir, json, async ({ client }) => {
        const st = await client.request('arena.status', {});
        if (json) printJson({ ok: true, pool: st.pool, weights: st.weights, events: st.events });
        else process.stdout.write(`${st.pool.map((e) => `${e.id.padEnd(14)} ${e.kind.padEnd(9)} weight ${e.weight}${e.pinned ? '  pinned' : ''}`).join('\n')}\n${weightsLine(st.weights)}\n`);
        return ExitCode.ok;
      });
    }
    if (!(ACTIONS as readonly string[]).includes(action)) throw new UsageError(`unknown pool action "${action}": pin, unpin or drop`);
    if (!opponent) throw new UsageError(`pool ${action} needs an opponent id (\`policyforge pool\` lists them)`);
    if (extra.length) throw new UsageError(`pool ${action} takes one opponent id, got ${positionals.length - 1}`);
    return withClient('pool', values.dir, json, async ({ client }) => {
      const result = action === 'drop' ? await client.request('arena.drop', { opponent }) : await client.request('arena.pin', { opponent, pinned: action === 'pin' });
      const done = action === 'drop' ? 'dropped' : action === 'pin' ? 'pinned' : 'unpinned';
      if (json) printJson({ ok: true, action: done, opponent, ...result });
      else process.stdout.write(formatPoolChange(done, opponent, result));
      return ExitCode.ok;
    });
  },
};
