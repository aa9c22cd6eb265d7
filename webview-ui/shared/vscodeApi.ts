/** The object VS Code injects into a webview (and the test page fakes). */
export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare global {
  function acquireVsCodeApi(): VsCodeApi;
}

let api: VsCodeApi | undefined;

/** acquireVsCodeApi may be called only once per page; every module shares this handle. */
export function vscodeApi(): VsCodeApi {
  api ??= acquireVsCodeApi();
  return api;
}
