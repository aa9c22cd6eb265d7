/**
 * What the LM agent needs of a language model, whatever serves it: an OpenAI-compatible
 * endpoint from the CLI (`openaiModel.ts`), `vscode.lm` in the editor (src/extension/agent).
 */

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ModelRequest {
  messages: ChatMessage[];
  /** Upper bound on the reply's tokens, so a call cannot overrun a cap. */
  maxOutputTokens?: number;
  signal: AbortSignal;
}

export interface ModelReply {
  text: string;
  /** Tokens billed for the prompt and the reply, as the provider counts them. */
  tokensIn: number;
  tokensOut: number;
}

export interface ChatModel {
  /** `provider/model`, for records and the status bar. */
  readonly id: string;
  complete(request: ModelRequest): Promise<ModelReply>;
}

/** A failed model call; `retryable` when the same call may succeed later (rate limits, 5xx, a dropped connection). */
export class ModelCallError extends Error {
  override name = 'ModelCallError';
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}
