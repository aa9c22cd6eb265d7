/**
 * The webview end of the panel protocol: validates every message the host sends (a malformed
 * one is dropped and logged, the panel goes on), validates what it sends back, announces `ready`
 * once its listeners are in place, and keeps the persisted state behind its schema. The checks
 * are src/protocol/webview.ts's own, the same ones the host runs.
 */
import { checkHostMessage, checkPanelState, checkWebviewMessage, type HostToWebview, type PanelKind, type PanelState, type WebviewToHost } from '../../src/protocol/webview';
import { vscodeApi } from './vscodeApi';

export interface HostBridge<S extends PanelState> {
  post(message: WebviewToHost): void;
  /** The state saved by a previous incarnation of this panel, when valid. */
  readonly restored: S | null;
  saveState(state: S): void;
  log(level: 'error' | 'warn' | 'info', message: string): void;
}

export function connectHost<K extends PanelKind>(
  panel: K,
  onMessage: (message: HostToWebview) => void,
): HostBridge<Extract<PanelState, { panel: K }>> {
  type S = Extract<PanelState, { panel: K }>;
  const api = vscodeApi();

  const log = (level: 'error' | 'warn' | 'info', message: string): void => {
    (level === 'error' ? console.error : level === 'warn' ? console.warn : console.info)(`[policyforge ${panel}] ${message}`);
    api.postMessage({ type: 'log', level, message } satisfies WebviewToHost);
  };

  const post = (message: WebviewToHost): void => {
    const checked = checkWebviewMessage(message);
    if (!checked.ok) {
      log('error', `not sending malformed ${message.type} message: ${checked.error}`);
      return;
    }
    api.postMessage(checked.value);
  };

  const ofThisPanel = (state: PanelState): state is S => state.panel === panel;
  let restored: S | null = null;
  const saved = api.getState();
  if (saved !== undefined && saved !== null) {
    const parsed = checkPanelState(saved);
    if (parsed.ok && ofThisPanel(parsed.value)) restored = parsed.value;
    else log('warn', 'ignoring saved panel state that does not match this panel');
  }

  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    const parsed = checkHostMessage(event.data);
    if (!parsed.ok) {
      const data: unknown = event.data;
      const type = typeof data === 'object' && data !== null && 'type' in data ? data.type : undefined;
      log('error', `ignored malformed message${typeof type === 'string' ? ` "${type}"` : ''}: ${parsed.error}`);
      return;
    }
    try {
      onMessage(parsed.value);
    } catch (e) {
      log('error', `failed to handle "${parsed.value.type}": ${e instanceof Error ? e.message : String(e)}`);
    }
  });

  post({ type: 'ready', panel });

  return {
    post,
    restored,
    saveState: (state) => api.setState(state),
    log,
  };
}
