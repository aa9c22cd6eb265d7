/**
 * The LM agent's ChatModel over `vscode.lm`: a model the user has (Copilot or any provider) and
 * picked. The first request carries a justification, so VS Code asks for consent as it expects.
 * `vscode.lm` reports no usage, so tokens are the model's own count of the prompt and the reply.
 */
import * as vscode from 'vscode';
import { ModelCallError, type ChatModel, type ModelReply, type ModelRequest } from '../../agents/lm/model';

export const CONSENT_JUSTIFICATION = 'The PolicyForge LM agent edits policy/ and submits episodes from the run budget, within the token and cost caps in its settings.';

export function vscodeLmModel(model: vscode.LanguageModelChat): ChatModel {
  return {
    id: `${model.vendor}/${model.name}`,
    async complete(req: ModelRequest): Promise<ModelReply> {
      // vscode.lm has no system role: the rules go first as a user message.
      const messages = req.messages.map((m) => (m.role === 'assistant' ? vscode.LanguageModelChatMessage.Assistant(m.content) : vscode.LanguageModelChatMessage.User(m.content)));
      const cancel = new vscode.CancellationTokenSource();
      const onAbort = (): void => cancel.cancel();
      req.signal.addEventListener('abort', onAbort);
      try {
        let tokensIn = 0;
        for (const m of req.messages) tokensIn += await model.countTokens(m.content, cancel.token);
        const response = await model.sendRequest(messages, { justification: CONSENT_JUSTIFICATION }, cancel.token);
        let text = '';
        for await (const part of response.text) text += part;
        return { text, tokensIn, tokensOut: await model.countTokens(text, cancel.token) };
      } catch (e) {
        if (req.signal.aborted) throw e;
        if (e instanceof vscode.LanguageModelError) {
          // Consent refused, quota, a model that went away: asking again will not help.
          throw new ModelCallError(`${model.name}: ${e.message}${e.code ? ` (${e.code})` : ''}`, false);
        }
        throw new ModelCallError(`${model.name}: ${e instanceof Error ? e.message : String(e)}`, false);
      } finally {
        req.signal.removeEventListener('abort', onAbort);
        cancel.dispose();
      }
    },
  };
}
