/**
 * The lazily loaded parser: ts-morph (and the TypeScript compiler it carries) is imported on the
 * first analysis call only, so nothing that merely imports `src/analysis` (the extension's
 * activation path, the runner at start-up) pays for it. Once loaded, the compiler stays warm for
 * the life of the process; trees are dropped as soon as their facts are extracted (the facts are
 * cached by content hash instead, see factsCache.ts).
 */
import type * as TsMorph from 'ts-morph';

export type TsMorphModule = typeof TsMorph;
export type Ts = typeof TsMorph.ts;
export type TsNode = TsMorph.ts.Node;
export type TsSourceFile = TsMorph.ts.SourceFile;

export interface Engine {
  readonly ts: Ts;
  /** Parses `text` as TypeScript (or JSON) and hands the compiler tree to `use`; the file is dropped afterwards. */
  parse<T>(fileName: string, text: string, json: boolean, use: (sf: TsSourceFile) => T): T;
}

let loading: Promise<Engine> | undefined;

/**
 * Loads ts-morph once per process. `require` when there is one (CommonJS: the bundles in dist/,
 * mocha via tsx): `import()` of a CommonJS package makes Node lex its source for named exports,
 * which for ts-morph's bundled compiler costs a few hundred milliseconds of the cold start.
 */
export function loadEngine(): Promise<Engine> {
  loading ??= (typeof require === 'function'
    ? // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy on purpose, see above
      Promise.resolve().then(() => require('ts-morph') as TsMorphModule)
    : import('ts-morph')
  ).then((imported) => createEngine(interop(imported)));
  return loading;
}

/** `import()` of a CommonJS package yields its exports either directly or under `default`, depending on the loader. */
function interop(imported: TsMorphModule & { default?: TsMorphModule }): TsMorphModule {
  return typeof imported.Project === 'function' ? imported : (imported.default ?? imported);
}

function createEngine(tsm: TsMorphModule): Engine {
  const ts = tsm.ts;
  // ts-morph's wrapped nodes (Project.createSourceFile, then forgetting them) cost about as
  // much as the parse itself; the analysis reads raw compiler nodes only, so it parses with
  // the compiler ts-morph carries, with parent pointers set as ts-morph would.
  return {
    ts,
    parse(fileName, text, json, use) {
      const name = json && !fileName.endsWith('.json') ? `${fileName}.json` : fileName;
      return use(ts.createSourceFile(name, text, ts.ScriptTarget.ES2022, true, json ? ts.ScriptKind.JSON : ts.ScriptKind.TS));
    },
  };
}
