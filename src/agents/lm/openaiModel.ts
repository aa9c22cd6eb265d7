/**
 * A ChatModel over any OpenAI-compatible chat-completions endpoint (OpenAI, vLLM, llama.cpp,
 * Ollama, LiteLLM, OpenRouter…): `POST {baseUrl}/chat/completions` with Node's fetch. Tokens
 * come from the reply's `usage`; a server that sends none is counted by estimate (4 characters
 * a token) and the reply says so in `estimated`.
 */
import { z } from 'zod';
import { ModelCallError, type ChatModel, type ModelReply, type ModelRequest } from './model';

const ReplySchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable().optional() }) })).min(1),
  usage: z.object({ prompt_tokens: z.number().int().nonnegative(), completion_tokens: z.number().int().nonnegative() }).optional(),
});

export interface OpenAiModelOptions {
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer`; omitted when empty (local servers). */
  apiKey?: string;
  temperature?: number;
  /** Per-request timeout. Default 300 s. */
  timeoutMs?: number;
}

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function openAiModel(opts: OpenAiModelOptions): ChatModel & { estimated: boolean } {
  const url = `${opts.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const state = {
    id: `${new URL(opts.baseUrl).host}/${opts.model}`,
    estimated: false,
    async complete(req: ModelRequest): Promise<ModelReply> {
      const body = {
        model: opts.model,
        messages: req.messages,
        ...(opts.temperature === undefined ? {} : { temperature: opts.temperature }),
        ...(req.maxOutputTokens ? { max_tokens: req.maxOutputTokens } : {}),
      };
      const signal = AbortSignal.any([req.signal, AbortSignal.timeout(opts.timeoutMs ?? 300_000)]);
      let res: Response;
      try {
        res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}) }, body: JSON.stringify(body), signal });
      } catch (e) {
        if (req.signal.aborted) throw e;
        throw new ModelCallError(`cannot reach ${url}: ${e instanceof Error ? ((e.cause as Error | undefined)?.message ?? e.message) : String(e)}`, true);
      }
      const text = await res.text();
      if (!res.ok) {
        const detail = text.slice(0, 300).replace(/\s+/g, ' ');
        throw new ModelCallError(`${url} answered HTTP ${res.status}${detail ? `: ${detail}` : ''}`, res.status === 429 || res.status >= 500);
      }
      let parsed: z.infer<typeof ReplySchema>;
      try {
        parsed = ReplySchema.parse(JSON.parse(text));
      } catch (e) {
        throw new ModelCallError(`${url} sent a reply that is not a chat completion (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`, false);
      }
      const content = parsed.choices[0]!.message.content ?? '';
      if (parsed.usage) return { text: content, tokensIn: parsed.usage.prompt_tokens, tokensOut: parsed.usage.completion_tokens };
      state.estimated = true;
      return { text: content, tokensIn: estimateTokens(req.messages.map((m) => m.content).join('\n')), tokensOut: estimateTokens(content) };
    },
  };
  return state;
}
