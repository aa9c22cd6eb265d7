/**
 * The lazily loaded parser: ts-morph (and the TypeScript compiler it carries) is imported on the
 * first analysis call only, so nothing that merely imports `src/analysis` (the extension's
 * activation path, the runner at start-up) pays for it. One in-memory Project stays warm for the
 * life of the process; source files are parsed through it and dropped once their facts are
 * extracted (the facts are cached by content hash instead, see factsCache.ts).
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
let parsed = 0;

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
  const project = new tsm.Project({
    useInMemoryFileSystem: true,
    skipLoadingLibFiles: true,
    skipFileDependencyResolution: true,
    compilerOptions: { target: ts.ScriptTarget.ES2022, allowJs: true, resolveJsonModule: true, noLib: true },
  });
  return {
    ts,
    parse(fileName, text, json, use) {
      // A unique virtual path per parse (the same bundle path is parsed for parent and child),
      // flat in the root: a directory per parse costs ts-morph's in-memory file system.
      const virtual = `/${++parsed}-${fileName.replace(/[^\w.-]/g, '_')}${json && !fileName.endsWith('.json') ? '.json' : ''}`;
      const sf = project.createSourceFile(virtual, text, { overwrite: true, scriptKind: json ? ts.ScriptKind.JSON : ts.ScriptKind.TS });
      try {
        return use(sf.compilerNode);
      } finally {
        project.removeSourceFile(sf);
      }
    },
  };
}
