/**
 * Module facts by content: a file parsed once is never parsed again in this process. In a run
 * each submission's parent was the previous child, so only the new checkpoint's changed files
 * are parsed. Bounded, oldest entries dropped first.
 */
import { loadEngine } from './engine';
import type { ModuleFacts } from './facts';
import { extractJsonFacts } from './jsonFacts';
import { extractTsFacts, sha256 } from './tsFacts';

/**
 * Bounds: a run's working set is the last few checkpoints' files, and the runner and extension
 * processes stay small. Token arrays dominate the size (about 8 bytes per token).
 */
const MAX_ENTRIES = 1000;
const MAX_TOKENS = 2_000_000;
const cache = new Map<string, ModuleFacts>();
let cachedTokens = 0;

export async function moduleFacts(file: string, text: string): Promise<ModuleFacts> {
  const json = file.endsWith('.json');
  const contentHash = sha256(text);
  const key = `${json ? 'j' : 't'}:${contentHash}`;
  const hit = cache.get(key);
  if (hit) {
    // Refresh recency.
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const engine = await loadEngine();
  const facts = engine.parse(file, text, json, (sf) => (json ? extractJsonFacts(engine.ts, sf, text, contentHash) : extractTsFacts(engine.ts, sf, text, contentHash)));
  cache.set(key, facts);
  cachedTokens += facts.tokens.length;
  while (cache.size > 1 && (cache.size > MAX_ENTRIES || cachedTokens > MAX_TOKENS)) {
    const [oldest, old] = cache.entries().next().value as [string, ModuleFacts];
    cache.delete(oldest);
    cachedTokens -= old.tokens.length;
  }
  return facts;
}

/** Drops every cached fact (benchmarks use it to time parsing honestly). */
export function clearFactsCache(): void {
  cache.clear();
  cachedTokens = 0;
}
