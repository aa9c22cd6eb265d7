/**
 * A sortable, keyboard-navigable table with CSV/JSON export. Rows are rebuilt wholesale on
 * update (a run has at most a few hundred submissions; DOM building is cheaper than diffing).
 */
import { h, type Child } from './dom';
import { exportCsv, exportJson, slug, type Cell } from './exporter';
import type { HostBridge } from './hostBridge';
import type { PanelState } from '../../src/protocol/webview';

export interface Column<R> {
  key: string;
  label: string;
  /** Value used for sorting and export. */
  value(row: R): Cell;
  /** Rendered cell content; defaults to the value as text. */
  render?(row: R): Child;
  numeric?: boolean;
  /** Let long text wrap instead of widening the table. */
  wrap?: boolean;
  sortable?: boolean;
  /** Header tooltip explaining the column. */
  hint?: string;
}

export interface DataTableOptions<R> {
  caption: string;
  columns: Column<R>[];
  rowKey(row: R): string;
  /** Enter or click on a row. */
  onActivate?(row: R): void;
  activateHint?: string;
  onSortChange?(key: string, dir: 'asc' | 'desc'): void;
  /** JSON export of the underlying rows (defaults to the column values). */
  toJson?(rows: readonly R[]): unknown;
  rowClass?(row: R): string | undefined;
  emptyText?: string;
}

export class DataTable<R> {
  readonly element: HTMLElement;
  private readonly tbody: HTMLTableSectionElement;
  private readonly headCells = new Map<string, HTMLTableCellElement>();
  private readonly empty: HTMLParagraphElement;
  private rows: readonly R[] = [];
  private readonly scroller: HTMLDivElement;
  private rowEls = new Map<string, HTMLTableRowElement>();
  private marked: HTMLTableRowElement[] = [];
  sortKey: string;
  sortDir: 'asc' | 'desc' = 'asc';

  constructor(private readonly bridge: HostBridge<PanelState>, private readonly o: DataTableOptions<R>) {
    this.sortKey = o.columns[0]?.key ?? '';
    const headRow = h('tr');
    for (const c of o.columns) {
      const th = h('th', { scope: 'col', class: c.numeric ? 'num' : undefined, title: c.hint });
      if (c.sortable !== false) {
        const btn = h('button', { class: 'sort', type: 'button', 'data-key': c.key }, c.label, h('span', { class: 'sort-mark', 'aria-hidden': 'true' }));
        btn.addEventListener('click', () => this.toggleSort(c.key));
        th.appendChild(btn);
      } else th.append(c.label);
      this.headCells.set(c.key, th);
      headRow.appendChild(th);
    }
    this.tbody = h('tbody');
    const table = h('table', { class: 'data' }, h('caption', { class: 'sr-only' }, o.caption), h('thead', {}, headRow), this.tbody);
    this.tbody.addEventListener('click', (e) => this.activateFrom(e.target, e));
    this.tbody.addEventListener('keydown', (e) => this.onKey(e));
    const csv = h('vscode-button' as 'button', { secondary: true, 'aria-label': `Export table "${o.caption}" as CSV`, title: 'Export as CSV' }, 'CSV');
    csv.addEventListener('click', () => this.exportCsv());
    const json = h('vscode-button' as 'button', { secondary: true, 'aria-label': `Export table "${o.caption}" as JSON`, title: 'Export as JSON' }, 'JSON');
    json.addEventListener('click', () => this.exportJson());
    this.empty = h('p', { class: 'empty' }, o.emptyText ?? 'Nothing yet.');
    this.scroller = h('div', { class: 'table-scroll' }, table);
    this.element = h('section', { class: 'card table-card', 'aria-label': o.caption },
      h('header', { class: 'card-header' }, h('h2', {}, o.caption), h('div', { class: 'card-actions' }, csv, json)),
      this.scroller, this.empty);
    this.renderSortMarks();
  }

  setRows(rows: readonly R[]): void {
    this.rows = rows;
    this.render();
  }

  setSort(key: string, dir: 'asc' | 'desc'): void {
    if (!this.o.columns.some((c) => c.key === key)) return;
    this.sortKey = key;
    this.sortDir = dir;
    this.renderSortMarks();
    this.render();
  }

  sortedRows(): R[] {
    const col = this.o.columns.find((c) => c.key === this.sortKey);
    const rows = [...this.rows];
    if (col === undefined) return rows;
    const sign = this.sortDir === 'asc' ? 1 : -1;
    return rows.sort((a, b) => sign * compare(col.value(a), col.value(b)));
  }

  private toggleSort(key: string): void {
    const dir = this.sortKey === key && this.sortDir === 'asc' ? 'desc' : 'asc';
    this.setSort(key, dir);
    this.o.onSortChange?.(key, dir);
  }

  private renderSortMarks(): void {
    for (const [key, th] of this.headCells) {
      const active = key === this.sortKey;
      th.setAttribute('aria-sort', active ? (this.sortDir === 'asc' ? 'ascending' : 'descending') : 'none');
      const mark = th.querySelector('.sort-mark');
      if (mark) mark.textContent = active ? (this.sortDir === 'asc' ? ' ▲' : ' ▼') : '';
    }
  }

  private render(): void {
    const frag = document.createDocumentFragment();
    const sorted = this.sortedRows();
    this.rowEls = new Map();
    this.marked = [];
    for (const r of sorted) {
      const key = this.o.rowKey(r);
      const tr = h('tr', { 'data-key': key, class: this.o.rowClass?.(r) });
      this.rowEls.set(key, tr);
      if (this.o.onActivate) {
        tr.tabIndex = 0;
        if (this.o.activateHint) tr.title = this.o.activateHint;
      }
      for (const c of this.o.columns) {
        const content = c.render ? c.render(r) : fmtCell(c.value(r));
        const td = h('td', { class: c.numeric ? 'num' : c.wrap ? 'wrap' : undefined }, content);
        tr.appendChild(td);
      }
      frag.appendChild(tr);
    }
    this.tbody.replaceChildren(frag);
    this.empty.hidden = sorted.length > 0;
  }

  /**
   * Marks the rows with these keys as current (class `current`, aria-current), replacing the last
   * mark, and with `scroll` brings the first into the table's own scroll area (never the page's).
   */
  markRows(keys: readonly string[], scroll: boolean): void {
    for (const tr of this.marked) {
      tr.classList.remove('current');
      tr.removeAttribute('aria-current');
    }
    this.marked = keys.flatMap((k) => {
      const tr = this.rowEls.get(k);
      return tr === undefined ? [] : [tr];
    });
    for (const tr of this.marked) {
      tr.classList.add('current');
      tr.setAttribute('aria-current', 'true');
    }
    const first = this.marked[0];
    if (!scroll || first === undefined) return;
    const box = this.scroller.getBoundingClientRect();
    const row = first.getBoundingClientRect();
    const head = this.scroller.querySelector('thead')?.getBoundingClientRect().height ?? 0;
    if (row.top < box.top + head) this.scroller.scrollTop -= box.top + head - row.top;
    else if (row.bottom > box.bottom) this.scroller.scrollTop += row.bottom - box.bottom;
  }

  private rowOf(target: EventTarget | null): R | undefined {
    const tr = target instanceof Element ? target.closest('tr') : null;
    const key = tr?.getAttribute('data-key');
    return key === null || key === undefined ? undefined : this.rows.find((r) => this.o.rowKey(r) === key);
  }

  private activateFrom(target: EventTarget | null, e: Event): void {
    // Buttons and links inside a row do their own thing.
    if (target instanceof Element && target.closest('button, a, vscode-button, vscode-badge[data-action]') !== null) return;
    const row = this.rowOf(target);
    if (row !== undefined && this.o.onActivate) {
      e.preventDefault();
      this.o.onActivate(row);
    }
  }

  private onKey(e: KeyboardEvent): void {
    const tr = e.target instanceof HTMLTableRowElement ? e.target : null;
    if (tr === null) return;
    if (e.key === 'Enter' || e.key === ' ') this.activateFrom(tr, e);
    else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      const next = e.key === 'ArrowDown' ? tr.nextElementSibling : tr.previousElementSibling;
      if (next instanceof HTMLElement) {
        e.preventDefault();
        next.focus();
      }
    }
  }

  private exportCsv(): void {
    exportCsv(this.bridge, `${slug(this.o.caption)}.csv`, this.o.columns.map((c) => c.label), this.sortedRows().map((r) => this.o.columns.map((c) => c.value(r))));
  }

  private exportJson(): void {
    const rows = this.sortedRows();
    const value = this.o.toJson ? this.o.toJson(rows) : rows.map((r) => Object.fromEntries(this.o.columns.map((c) => [c.key, c.value(r)])));
    exportJson(this.bridge, `${slug(this.o.caption)}.json`, value);
  }
}

function compare(a: Cell, b: Cell): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true });
}

function fmtCell(v: Cell): string {
  if (v === null) return '—';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : v.toFixed(2);
  return String(v);
}
