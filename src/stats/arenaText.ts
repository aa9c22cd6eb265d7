/**
 * Arena runs as plain text: what `policyforge submit`/`feedback`/`status`/`finish`/`pool` print on
 * an arena run, and what the MCP tools, the chat agent's LM tools and VS Code show, so every
 * surface reads the same tables. Inputs are the documents of src/protocol/arena.ts.
 */
import type { ArenaGame, ArenaRunReport, ArenaStageResult, ArenaStatus, ArenaSubmissionSummary, PoolEntryInfo, PoolEvent } from '../protocol/arena';

/** Rows of the games-worth-replaying list; the rest are in summary.json. */
export const REPLAY_ROWS = 8;

const rate = (x: number | null | undefined): string => (x === null || x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(2));
const pct = (x: number): string => `${Math.round(100 * x)}%`;
const pad4 = (n: number): string => String(n).padStart(4, '0');

/** Left-aligned columns, two spaces apart; trailing blanks trimmed. */
export function columns(rows: readonly (readonly string[])[], indent = '  '): string[] {
  const width: number[] = [];
  for (const r of rows) r.forEach((cell, i) => (width[i] = Math.max(width[i] ?? 0, cell.length)));
  return rows.map((r) => `${indent}${r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(width[i] ?? 0))).join('  ')}`.trimEnd());
}

/** The feedback folder's match file of a game (the path the summary records, else the conventional one). */
export function matchPath(submission: number, g: Pick<ArenaGame, 'game' | 'trajectory'>): string {
  return g.trajectory ?? `feedback/submit-${pad4(submission)}/games/game-${String(g.game).padStart(5, '0')}.jsonl`;
}

/** Per-opponent table of one stage: W/D/L, points, captures (or game score) for and against, errors. */
export function stageTable(stage: ArenaStageResult, games: readonly ArenaGame[]): string[] {
  const rows: string[][] = [['opponent', 'kind', 'W', 'D', 'L', 'points', 'score for–against', 'errors']];
  for (const o of stage.perOpponent) {
    const mine = games.filter((g) => g.opponent === o.opponent);
    const own = mine.reduce((s, g) => s + g.score.own, 0);
    const theirs = mine.reduce((s, g) => s + g.score.opponent, 0);
    rows.push([o.opponent, o.kind, String(o.W), String(o.D), String(o.L), `${o.points}/${o.games}`, mine.length ? `${own}–${theirs}` : '—', o.errors.length ? String(o.errors.length) : '']);
  }
  return columns(rows, '    ');
}

/** The games worth opening: per opponent its worst result (a loss, else a draw), and every game a side failed. */
export function gamesWorthReplaying(s: Pick<ArenaSubmissionSummary, 'submission' | 'games'>, limit = REPLAY_ROWS): string[] {
  const picks: { why: string; g: ArenaGame }[] = [];
  const seen = new Set<number>();
  const add = (why: string, g: ArenaGame | undefined) => {
    if (!g || seen.has(g.game)) return;
    seen.add(g.game);
    picks.push({ why, g });
  };
  for (const g of s.games) if (g.error) add(`${g.error.side} ${g.error.status}`, g);
  const opponents = [...new Set(s.games.map((g) => g.opponent))];
  for (const o of opponents) {
    const mine = s.games.filter((g) => g.opponent === o);
    const margin = (g: ArenaGame) => g.score.own - g.score.opponent;
    const losses = mine.filter((g) => g.outcome === 'L').sort((a, b) => margin(a) - margin(b));
    const draws = mine.filter((g) => g.outcome === 'D');
    add(losses.length ? 'worst loss' : 'a draw', losses[0] ?? draws[0]);
  }
  const lines = picks.slice(0, limit).map(({ why, g }) => `    ${why.padEnd(18)} vs ${g.opponent.padEnd(12)} game ${g.game} (${g.stage}, ${g.side}, ${g.score.own}–${g.score.opponent})  ${matchPath(s.submission, g)}`);
  if (picks.length > limit) lines.push(`    … ${picks.length - limit} more in summary.json's games`);
  return lines;
}

function distinctErrors(games: readonly ArenaGame[], limit = 5): string[] {
  const by = new Map<string, { count: number; opponents: Set<string>; first: ArenaGame }>();
  for (const g of games) {
    if (!g.error) continue;
    const key = `${g.error.side} ${g.error.status}: ${g.error.message.split('\n')[0] ?? ''}`;
    const e = by.get(key) ?? { count: 0, opponents: new Set<string>(), first: g };
    e.count++;
    e.opponents.add(g.opponent);
    by.set(key, e);
  }
  const lines = [...by.entries()].slice(0, limit).map(([key, e]) => `  ${key} ×${e.count} (vs ${[...e.opponents].join(', ')}; first in game ${e.first.game})`);
  if (by.size > limit) lines.push(`  … ${by.size - limit} more distinct errors`);
  return lines;
}

export function weightsLine(weights: Readonly<Record<string, number>>): string {
  return `weights: ${Object.entries(weights).map(([id, w]) => `${id} ${w}`).join(', ')} (the opponent submissions do worst against weighs double)`;
}

/** A submission's feedback: stage reached and why, per-opponent tables, errors, games to replay. */
export function formatArenaSummary(s: ArenaSubmissionSummary): string {
  const out: string[] = [];
  out.push(`submission ${s.submission} (checkpoint ${s.checkpoint.slice(0, 12)}) on ${s.envId}: reached the ${s.stage} stage — ${s.reason}`);
  out.push(`charged ${s.gamesCharged} games; budget ${s.budget.used}/${s.budget.total} games used, ${s.budget.remaining} left`);
  if (s.promoted) out.push(`PROMOTED: joins the opponent pool as ${s.promoted}; later submissions play it`);
  if (s.typeErrors > 0) out.push(`note: policy/ had ${s.typeErrors} type error(s) when it was built`);
  const screenGames = s.games.filter((g) => g.stage === 'screen');
  out.push('', `screen: points rate ${rate(s.screen.pointsRate)} (pass mark ${rate(s.screen.passMark)}), win rate ${pct(s.screen.winRate)} over ${s.screen.games} games`, ...stageTable(s.screen, screenGames));
  if (s.deep) {
    const deepGames = s.games.filter((g) => g.stage === 'deep');
    out.push('', `deep: points rate ${rate(s.deep.pointsRate)} (promotion at ${rate(s.deep.promotionBar)}), win rate ${pct(s.deep.winRate)} over ${s.deep.games} games`, ...stageTable(s.deep, deepGames));
  } else {
    out.push('', 'deep: not played');
  }
  out.push('', weightsLine(s.weights));
  const errors = distinctErrors(s.games);
  if (errors.length) out.push('', 'errors (the failing side lost the game):', ...errors);
  const replay = gamesWorthReplaying(s);
  if (replay.length) out.push('', 'games worth replaying:', ...replay);
  return `${out.join('\n')}\n`;
}

function poolRows(pool: readonly PoolEntryInfo[]): string[] {
  const rows: string[][] = [['opponent', 'kind', 'weight', 'pinned', "submissions' points rate", 'games', 'joined']];
  for (const e of pool) {
    const from = e.kind === 'champion' && e.submission !== undefined ? `game ${e.joinedAtGame} (submission ${e.submission})` : e.kind === 'champion' ? `game ${e.joinedAtGame}` : 'start';
    rows.push([e.id, e.kind, String(e.weight), e.pinned ? 'pinned' : '', rate(e.winRate), String(e.games), from]);
  }
  return columns(rows);
}

export function eventLine(e: PoolEvent): string {
  return `  ${e.kind} ${e.opponent} at game ${e.atGame}${e.submission !== undefined ? ` (submission ${e.submission})` : ''}`;
}

/** `status` on an arena run: budget, stage rules, the pool with weights and pins, ratings, submissions. */
export function formatArenaStatus(st: ArenaStatus, ratingRows = 10): string {
  const o = st.options;
  const out: string[] = [
    `${st.envId} arena run, phase ${st.phase}: ${st.budget.used}/${st.budget.total} games used, ${st.budget.remaining} left`,
    `stages: screen ${o.screenGames} games per opponent (pass at points rate ${rate(o.screenPass)}), then deep ${o.deepGames} games by weight; promotion at deep points rate ≥ ${rate(0.5 + o.promotionMargin)}; pool of at most ${o.maxPool}`,
  ];
  if (st.running) out.push(`running: submission ${st.running.submission}, ${st.running.stage} ${st.running.done}/${st.running.total} games`);
  const f = st.finishing;
  if (f) out.push(`finishing: ${f.gamesTotal === 0 ? 'starting the validation' : arenaProgressText({ phase: f.phase, submission: f.submission, done: f.gamesDone, total: f.gamesTotal, against: f.against, ...(f.phase === 'validation' ? { candidates: { done: f.candidatesDone, total: f.candidatesTotal } } : {}) })}`);
  out.push('', 'pool (weight 2: the opponent submissions do worst against, sampled double in deep evaluations):', ...poolRows(st.pool));
  if (st.events.length) out.push('', 'pool events:', ...st.events.slice(-8).map(eventLine));
  if (st.ratings.length) {
    out.push('', 'ratings (OpenSkill; ordinal = mu − 3·sigma):', ...columns([['#', 'id', 'ordinal', 'mu', 'sigma'], ...st.ratings.slice(0, ratingRows).map((r, i) => [String(i + 1), r.id, r.ordinal.toFixed(2), r.mu.toFixed(2), r.sigma.toFixed(2)])]));
    if (st.ratings.length > ratingRows) out.push(`  … ${st.ratings.length - ratingRows} more`);
  }
  if (st.history.length) {
    out.push('', 'submissions:', ...columns([['#', 'stage', 'screen', 'deep', 'promoted', 'games'], ...st.history.map((h) => [String(h.submission), h.stage, rate(h.screenPointsRate), rate(h.deepPointsRate), h.promoted ?? '', String(h.gamesCharged)])]));
  } else {
    out.push('', 'no submissions yet');
  }
  for (const r of st.recovery) out.push(`recovery: ${r}`);
  return `${out.join('\n')}\n`;
}

/** What a pin, unpin or drop did, with the pool after it. */
export function formatPoolChange(action: 'pinned' | 'unpinned' | 'dropped', opponent: string, result: { pool: readonly PoolEntryInfo[]; weights: Readonly<Record<string, number>> }): string {
  return [`${action} ${opponent}; the pool now:`, ...poolRows(result.pool), weightsLine(result.weights)].join('\n') + '\n';
}

function assessmentBlock(title: string, r: ArenaStageResult): string[] {
  return [`${title}: win rate ${pct(r.winRate)}, points rate ${rate(r.pointsRate)} over ${r.games} games`, ...columns([['opponent', 'kind', 'W', 'D', 'L', 'points'], ...r.perOpponent.map((o) => [o.opponent, o.kind, String(o.W), String(o.D), String(o.L), `${o.points}/${o.games}`])], '    ')];
}

/** The report of a finished arena run: validation, the selected submission, both assessment figures. */
export function formatArenaReport(r: ArenaRunReport): string {
  const out: string[] = [
    `arena run ${r.runId} on ${r.envId} complete (${r.trigger === 'budget' ? 'the budget ran out' : 'finish was asked'}): ${r.budget.used}/${r.budget.total} games, ${r.submissions} submissions`,
  ];
  const cands = [...r.validation.candidates].sort((a, b) => b.pointsRate - a.pointsRate || b.submission - a.submission);
  out.push('', `validation: every candidate against the final pool, ${r.validation.gamesPerOpponent} fresh games per opponent`);
  out.push(...columns([['submission', 'points rate', 'win rate', 'games', ''], ...cands.map((c) => [String(c.submission), rate(c.pointsRate), pct(c.winRate), String(c.games), r.selected?.submission === c.submission ? '← selected' : ''])]));
  if (!r.selected || !r.assessment) {
    out.push('', 'no submission was selected: nothing was assessed');
  } else {
    out.push('', `selected: submission ${r.selected.submission} (checkpoint ${r.selected.checkpoint.slice(0, 12)})`);
    const hidden = r.assessment.hidden;
    out.push(...assessmentBlock('  against hidden opponents never seen in the run', hidden));
    if (hidden.opponents.length) out.push(...hidden.opponents.map((h) => `      ${h.id}: ${h.description}`));
    out.push(...assessmentBlock('  against the final pool', r.assessment.finalPool));
  }
  out.push('', 'final pool:', ...poolRows(r.pool));
  if (r.ratings.length) out.push('', 'ratings:', ...columns([['#', 'id', 'ordinal'], ...r.ratings.slice(0, 10).map((x, i) => [String(i + 1), x.id, x.ordinal.toFixed(2)])]));
  return `${out.join('\n')}\n`;
}

/** One line for progress displays: "submission 3: screen 5/12 games", "submission 3: assessment against the hidden opponents 4/20 games". */
export function arenaProgressText(p: { phase: string; submission: number | null; done: number; total: number; against?: 'pool' | 'hidden'; candidates?: { done: number; total: number } }): string {
  const against = p.against === 'hidden' ? ' against the hidden opponents' : p.against === 'pool' ? ' against the final pool' : '';
  const candidate = p.candidates ? ` (candidate ${Math.min(p.candidates.done + 1, p.candidates.total)} of ${p.candidates.total})` : '';
  return `${p.submission !== null ? `submission ${p.submission}: ` : ''}${p.phase}${against} ${p.done}/${p.total} games${candidate}`;
}
