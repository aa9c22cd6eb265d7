/** Small controls every panel uses: a text link that acts, and a secondary action button. */
import { h, hx } from './dom';

/** A link-styled button; its click never reaches a table row around it (rows act on click too). */
export function linkButton(text: string, label: string, onClick: () => void): HTMLButtonElement {
  const b = h('button', { type: 'button', class: 'link', 'aria-label': label, title: label }, text);
  b.addEventListener('click', (e) => {
    e.stopPropagation();
    onClick();
  });
  return b;
}

/** A secondary vscode-button with a short text (PNG, CSV) and a full label for screen readers. */
export function actionButton(text: string, label: string, onClick: () => void): HTMLElement {
  const b = hx('vscode-button', { secondary: true, 'aria-label': label, title: label }, text);
  b.addEventListener('click', onClick);
  return b;
}
