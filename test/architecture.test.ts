/**
 * The layering and size rules of docs/architecture.md#layers, read from the source itself: the
 * import graph of src/ and web/src (every import, export-from and dynamic import, type-only ones
 * included, parsed with the TypeScript compiler API) and the length of every function and file.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { IMPORT_FORMATS } from '../src/ingest/formats/index.ts';

const REPO = resolve(import.meta.dirname, '..');

/** Files above the 450-line bar on purpose: data tables, not logic (docs/architecture.md). */
const DATA_CATALOGUES = new Set(['src/ingest/demo/demo-catalogue.ts']);
const MAX_FILE_LINES = 450;
const MAX_FUNCTION_LINES = 120;

/** The one route that may read the store: health pings it and reads its version and last import. */
const HEALTH_ROUTE = 'src/http/routes/health.ts';
/** The context the routes are built from carries the store for health: a type import only. */
const APP_CONTEXT = 'src/http/app-context.ts';

/** Every file under `dir` (repository-relative, forward slashes). */
function walk(dir: string, keep: (path: string) => boolean = () => true): string[] {
  const out: string[] = [];
  const absolute = join(REPO, dir);
  if (!existsSync(absolute)) return out;
  for (const name of readdirSync(absolute).sort()) {
    const path = `${dir}/${name}`;
    if (statSync(join(REPO, path)).isDirectory()) out.push(...walk(path, keep));
    else if (keep(path)) out.push(path);
  }
  return out;
}

const SOURCES = walk('src', (path) => path.endsWith('.ts'));
/** The dashboard's source; its API types are generated from the contract, not written. */
const WEB_GENERATED = 'web/src/generated/';
const WEB_SOURCES = walk(
  'web/src',
  (path) => /\.tsx?$/.test(path) && !path.startsWith(WEB_GENERATED),
);

function parse(path: string): ts.SourceFile {
  return ts.createSourceFile(
    path,
    readFileSync(join(REPO, path), 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
}

interface ImportEdge {
  from: string;
  /** Repository-relative file for a relative specifier, else the package name. */
  to: string;
  typeOnly: boolean;
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function target(from: string, specifier: string): string {
  if (!specifier.startsWith('.')) return packageName(specifier);
  return relative(REPO, resolve(REPO, dirname(from), specifier))
    .split('\\')
    .join('/');
}

/** Every import of a file: static imports, `export ... from`, `import()` and `import('x')` types. */
function importsOf(path: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  const add = (specifier: ts.Expression | undefined, typeOnly: boolean) => {
    if (specifier !== undefined && ts.isStringLiteral(specifier)) {
      edges.push({ from: path, to: target(path, specifier.text), typeOnly });
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      add(node.moduleSpecifier, node.importClause?.isTypeOnly === true);
    } else if (ts.isExportDeclaration(node)) {
      add(node.moduleSpecifier, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0], false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal as ts.Expression, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(parse(path));
  return edges;
}

const GRAPH = new Map(SOURCES.map((path) => [path, importsOf(path)]));
/** src/ and web/src together, for the rules both keep (cycles, lengths). */
const WHOLE_GRAPH = new Map([
  ...GRAPH,
  ...WEB_SOURCES.map((path) => [path, importsOf(path)] as const),
]);

/**
 * Every import cycle of a graph, each once: the strongly connected components (Tarjan) of more
 * than one file, or of one file that imports itself, each listed from its first file in order.
 */
function cycles(graph: ReadonlyMap<string, ImportEdge[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (path: string): void => {
    index.set(path, index.size);
    low.set(path, index.get(path)!);
    stack.push(path);
    onStack.add(path);
    for (const { to } of graph.get(path) ?? []) {
      if (!graph.has(to)) continue;
      if (!index.has(to)) {
        visit(to);
        low.set(path, Math.min(low.get(path)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(path, Math.min(low.get(path)!, index.get(to)!));
      }
    }
    if (low.get(path) !== index.get(path)) return;
    const component: string[] = [];
    let top: string;
    do {
      top = stack.pop()!;
      onStack.delete(top);
      component.push(top);
    } while (top !== path);
    const selfImport = graph.get(path)?.some((e) => e.to === path) === true;
    if (component.length > 1 || selfImport) out.push(component.sort());
  };
  for (const path of [...graph.keys()].sort()) if (!index.has(path)) visit(path);
  return out.sort((a, b) => a[0].localeCompare(b[0]));
}

/** Every function of a file longer than `max` lines, as "path: name (lines)". */
function longFunctions(path: string, max: number): string[] {
  const file = parse(path);
  const long: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const lines = linesOf(file, node);
      if (lines > max) {
        long.push(`${path}: ${functionName(node as ts.FunctionLikeDeclaration)} (${lines})`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return long;
}

const fileLines = (path: string): number =>
  readFileSync(join(REPO, path), 'utf8').split('\n').length;

const under = (folder: string) => (path: string) => path.startsWith(`${folder}/`);

/** Direct imports from files in `fromFolder` whose target `forbidden` accepts. */
function directViolations(
  fromFolder: string,
  forbidden: (to: string) => boolean,
  allowed: (edge: ImportEdge) => boolean = () => false,
): string[] {
  const out: string[] = [];
  for (const [path, edges] of GRAPH) {
    if (!under(fromFolder)(path)) continue;
    for (const edge of edges) {
      if (forbidden(edge.to) && !allowed(edge)) out.push(`${edge.from} -> ${edge.to}`);
    }
  }
  return [...new Set(out)].sort();
}

/**
 * Forbidden imports anywhere in what files in `fromFolder` load, following imports inside src/
 * (so an engine file cannot reach Kysely through a helper either). Each is reported once, as
 * the offending import itself.
 */
function transitiveViolations(fromFolder: string, forbidden: (to: string) => boolean): string[] {
  const reached = new Set(SOURCES.filter(under(fromFolder)));
  const queue = [...reached];
  while (queue.length > 0) {
    for (const edge of GRAPH.get(queue.shift()!) ?? []) {
      if (!forbidden(edge.to) && GRAPH.has(edge.to) && !reached.has(edge.to)) {
        reached.add(edge.to);
        queue.push(edge.to);
      }
    }
  }
  const out = new Set<string>();
  for (const path of reached) {
    for (const edge of GRAPH.get(path) ?? []) {
      if (forbidden(edge.to)) out.add(`${edge.from} -> ${edge.to}`);
    }
  }
  return [...out].sort();
}

/** The lines a node spans, from its first token to its last. */
function linesOf(file: ts.SourceFile, node: ts.Node): number {
  const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
  const end = file.getLineAndCharacterOfPosition(node.getEnd()).line;
  return end - start + 1;
}

function functionName(node: ts.FunctionLikeDeclaration): string {
  if (node.name !== undefined && ts.isIdentifier(node.name)) return node.name.text;
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  return '(anonymous)';
}

/**
 * The "May import" column of docs/architecture.md#layers as an allow-list: the folders of src/
 * each folder's files may import, type-only imports included. `src/domain` and `src/version.ts`
 * lie below every layer; a layer may import its own folder.
 */
const LAYERS: Readonly<Record<string, readonly string[]>> = {
  'src/domain': [],
  'src/config': [],
  'src/errors': [],
  'src/store': [],
  'src/ingest': ['src/errors', 'src/store'],
  'src/snapshot': ['src/store'],
  'src/engine': ['src/snapshot'],
  'src/http': ['src/engine', 'src/snapshot', 'src/errors', 'src/config', 'src/store'],
  'src/threads': [
    'src/config',
    'src/errors',
    'src/store',
    'src/snapshot',
    'src/engine',
    'src/http',
  ],
  'src/cli': [
    'src/config',
    'src/errors',
    'src/store',
    'src/ingest',
    'src/snapshot',
    'src/engine',
    'src/http',
    'src/threads',
  ],
};

/** The layer folder of a file under src/ (its first folder), or null for src/version.ts. */
function layerOf(path: string): string | null {
  const parts = path.split('/');
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : null;
}

/** The thread room (docs/architecture.md#threads) and its one way to start a thread. */
const THREADS = 'src/threads';
const START_THREAD = 'src/threads/start-thread.ts';

/** The values (not types) a file imports from node:worker_threads, by name. */
function workerThreadValues(path: string): string[] {
  const names: string[] = [];
  for (const statement of parse(path).statements) {
    if (!ts.isImportDeclaration(statement) || statement.importClause?.isTypeOnly === true) continue;
    const specifier = statement.moduleSpecifier;
    if (!ts.isStringLiteral(specifier) || specifier.text !== 'node:worker_threads') continue;
    const bindings = statement.importClause?.namedBindings;
    if (bindings === undefined || !ts.isNamedImports(bindings)) {
      names.push('*');
      continue;
    }
    for (const element of bindings.elements) if (!element.isTypeOnly) names.push(element.name.text);
  }
  return names;
}

/** Query-builder calls that start a statement: only src/store builds one. */
const QUERY_STARTS = new Set([
  'selectFrom',
  'insertInto',
  'updateTable',
  'deleteFrom',
  'replaceInto',
]);

/**
 * Where a file builds a query or reaches for a store's query handle, as "path:line what": a
 * query-builder call that starts a statement, a `.db` property, or a `sql` template.
 */
function queryBuilding(path: string, text = readFileSync(join(REPO, path), 'utf8')): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const at = (node: ts.Node, what: string) =>
    out.push(`${path}:${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1} ${what}`);
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node)) {
      const name = node.name.text;
      if (name === 'db') at(node, '.db');
      else if (QUERY_STARTS.has(name) && ts.isCallExpression(node.parent)) at(node, `.${name}()`);
    } else if (
      ts.isTaggedTemplateExpression(node) &&
      ts.isIdentifier(node.tag) &&
      node.tag.text === 'sql'
    ) {
      at(node, 'sql``');
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

describe('architecture', () => {
  it('imports across layers only as the layer table of docs/architecture.md allows', () => {
    const out: string[] = [];
    for (const [path, edges] of GRAPH) {
      const from = layerOf(path);
      if (from === null) continue;
      assert.ok(from in LAYERS, `${path}: a folder the layer table names`);
      for (const edge of edges) {
        if (!edge.to.startsWith('src/')) continue;
        const to = layerOf(edge.to);
        if (to === null || to === from || to === 'src/domain') continue;
        if (!LAYERS[from].includes(to)) out.push(`${edge.from} -> ${edge.to}`);
      }
    }
    assert.deepEqual([...new Set(out)].sort(), []);
  });

  it('starts every thread through src/threads/start-thread.ts: no other file makes a Worker', () => {
    const makers = SOURCES.filter((path) =>
      /\bnew Worker\(/.test(readFileSync(join(REPO, path), 'utf8')),
    );
    assert.deepEqual(makers, [START_THREAD]);
  });

  it('keeps thread code in src/threads: elsewhere node:worker_threads gives types and threadId only', () => {
    const out = SOURCES.filter((path) => !under(THREADS)(path)).flatMap((path) =>
      workerThreadValues(path)
        .filter((name) => name !== 'threadId')
        .map((name) => `${path}: ${name}`),
    );
    assert.deepEqual(out, []);
  });

  it('names the two sides of a thread x-host.ts (the parent) and x-thread.ts (inside the worker)', () => {
    const inside = SOURCES.filter((path) =>
      workerThreadValues(path).some((name) => name === 'parentPort' || name === 'workerData'),
    );
    assert.ok(inside.includes('src/threads/engine-thread.ts'), 'finds the engine thread');
    const misnamed = inside.filter((path) => !/^src\/threads\/[a-z-]+-thread\.ts$/.test(path));
    assert.deepEqual(misnamed, [], 'code that runs inside a worker is an x-thread.ts');
    // start-thread.ts is the verb, not a side: the one way either side is started.
    const sides = SOURCES.filter(
      (path) => under(THREADS)(path) && path.endsWith('-thread.ts') && path !== START_THREAD,
    );
    const alone = sides.filter(
      (path) => !SOURCES.includes(path.replace(/-thread\.ts$/, '-host.ts')),
    );
    assert.deepEqual(alone, [], 'each x-thread.ts has its x-host.ts');
  });

  it('finds the source files and their imports', () => {
    assert.ok(SOURCES.length > 50, `read ${SOURCES.length} files under src/`);
    const edges = [...GRAPH.values()].flat();
    assert.ok(
      edges.some((e) => e.to === 'src/engine/filter.ts'),
      'relative imports resolve',
    );
    assert.ok(
      edges.some((e) => e.to === 'fastify'),
      'package imports are seen',
    );
  });

  it('keeps the shared protections below the routes: src/http/plugins never imports a route', () => {
    assert.deepEqual(directViolations('src/http/plugins', under('src/http/routes')), []);
  });

  it('never imports src/ingest from src/store (the batch types live in src/domain)', () => {
    assert.deepEqual(directViolations('src/store', under('src/ingest')), []);
  });

  it('reads the store from src/http only in the health route', () => {
    const violations = directViolations(
      'src/http',
      under('src/store'),
      (edge) => edge.from === HEALTH_ROUTE || (edge.from === APP_CONTEXT && edge.typeOnly),
    );
    assert.deepEqual(violations, []);
  });

  it('keeps Kysely and the database drivers in src/store: no other file of src/ imports them', () => {
    const driver = (to: string) => to === 'kysely' || to === 'pg' || to === 'better-sqlite3';
    const out = [...GRAPH.values()]
      .flat()
      .filter((e) => !under('src/store')(e.from) && driver(e.to))
      .map((e) => `${e.from} -> ${e.to}`);
    assert.deepEqual([...new Set(out)].sort(), []);
  });

  it('builds queries only in src/store: elsewhere no query-builder call, .db handle or sql template', () => {
    const sample = [
      'const a = await store.db.selectFrom("events").select("id").execute();',
      'await trx.updateTable("imports").set({}).execute();',
      'await sql`select 1`.execute(x);',
      'const ok = events.select((e) => e.id);',
    ].join('\n');
    assert.deepEqual(queryBuilding('sample.ts', sample), [
      'sample.ts:1 .selectFrom()',
      'sample.ts:1 .db',
      'sample.ts:2 .updateTable()',
      'sample.ts:3 sql``',
    ]);
    const out = SOURCES.filter((path) => !under('src/store')(path)).flatMap((path) =>
      queryBuilding(path),
    );
    assert.deepEqual(out, []);
  });

  it('knows no import format by name in read-sources.ts: each format brings its own reader', () => {
    const READ_SOURCES = 'src/ingest/read-sources.ts';
    const text = readFileSync(join(REPO, READ_SOURCES), 'utf8');
    const named = IMPORT_FORMATS.map((f) => f.name).filter((name) =>
      new RegExp(`\\b${name}\\b`, 'i').test(text),
    );
    assert.deepEqual(named, []);
    assert.deepEqual(
      directViolations('src/ingest', under('src/ingest/formats')).filter((v) =>
        v.startsWith(`${READ_SOURCES} `),
      ),
      [],
    );
  });

  it('keeps each import format in one folder of src/ingest/formats, named for it', () => {
    const names = IMPORT_FORMATS.map((f) => f.name);
    assert.ok(names.length >= 6, names.join(', '));
    for (const name of names) {
      const spec = `src/ingest/formats/${name}/${name}-format.ts`;
      assert.ok(existsSync(join(REPO, spec)), `${spec} exists`);
    }
    // A format's modules outside its folder: files of src/ingest named for a format.
    const stray = SOURCES.filter(
      (path) =>
        !under('src/ingest/formats')(path) &&
        under('src/ingest')(path) &&
        names.some((name) => path.split('/').pop()!.startsWith(`${name}-`)),
    );
    assert.deepEqual(stray, []);
    const folders = readdirSync(join(REPO, 'src/ingest/formats')).filter((entry) =>
      statSync(join(REPO, 'src/ingest/formats', entry)).isDirectory(),
    );
    assert.deepEqual(folders.sort(), [...names].sort(), 'one folder per listed format');
  });

  it('keeps the engine free of SQL, HTTP and the snapshot loader', () => {
    const forbidden = (to: string) =>
      to === 'kysely' ||
      to === 'pg' ||
      to === 'better-sqlite3' ||
      to === 'fastify' ||
      to.startsWith('@fastify/') ||
      under('src/store')(to) ||
      under('src/http')(to) ||
      /^src\/snapshot\/snapshot-builder[^/]*$/.test(to) ||
      to === 'src/snapshot/load-snapshot.ts' ||
      to === 'src/snapshot/snapshot-manager.ts' ||
      // The HTTP-shaped error (status, headers, problem details) belongs to the HTTP edge.
      to === 'src/errors/problem.ts';
    assert.deepEqual(transitiveViolations('src/engine', forbidden), []);
  });

  it('keeps src/domain at the bottom: it imports nothing else from src/', () => {
    const upward = (to: string) => to.startsWith('src/') && !under('src/domain')(to);
    assert.deepEqual(directViolations('src/domain', upward), []);
  });

  it(`has no function over ${MAX_FUNCTION_LINES} lines in src/ or web/src`, () => {
    const long = [...SOURCES, ...WEB_SOURCES].flatMap((path) =>
      longFunctions(path, MAX_FUNCTION_LINES),
    );
    assert.deepEqual(long, []);
  });

  it(`has no file over ${MAX_FILE_LINES} lines in src/ or web/src outside the data catalogues`, () => {
    for (const path of DATA_CATALOGUES) assert.ok(existsSync(join(REPO, path)), `${path} exists`);
    const long = [...SOURCES, ...WEB_SOURCES]
      .filter((path) => !DATA_CATALOGUES.has(path))
      .map((path) => ({ path, lines: fileLines(path) }))
      .filter((f) => f.lines > MAX_FILE_LINES)
      .map((f) => `${f.path} (${f.lines})`);
    assert.deepEqual(long, []);
  });

  it('draws every dashboard table with SortableTable; only the heatmap grid is its own', () => {
    // A matrix of two factions, or of two teams' players, has no rows to sort: they are the
    // tables of their own.
    const own = new Set([
      'web/src/components/sortable-table.tsx',
      'web/src/pages/matchups.tsx',
      'web/src/pages/team-matrix-view.tsx',
    ]);
    for (const path of own) assert.ok(existsSync(join(REPO, path)), `${path} exists`);
    const byHand = WEB_SOURCES.filter(
      (path) => !own.has(path) && /<table[\s>]/.test(readFileSync(join(REPO, path), 'utf8')),
    );
    assert.deepEqual(byHand, []);
  });

  it('reads the dashboard too: .ts and .tsx files of web/src and their imports', () => {
    assert.ok(
      WEB_SOURCES.some((path) => path.endsWith('.tsx')),
      'finds .tsx files',
    );
    assert.ok(!WEB_SOURCES.some((path) => path.startsWith(WEB_GENERATED)), 'skips generated');
    const edges = WEB_SOURCES.flatMap((path) => WHOLE_GRAPH.get(path) ?? []);
    assert.ok(
      edges.some((e) => e.to === 'web/src/components/sortable-table.tsx'),
      '.tsx imports resolve',
    );
  });

  it('lets the dashboard import from src/ only src/domain, and nothing that needs Node there', () => {
    // The one CSV writer and the link rule are shared with the browser (docs/architecture.md).
    const out: string[] = [];
    const reached = new Set<string>();
    const queue = WEB_SOURCES.flatMap((path) => WHOLE_GRAPH.get(path) ?? []);
    for (let edge = queue.shift(); edge !== undefined; edge = queue.shift()) {
      if (!edge.to.startsWith('src/')) continue;
      if (!under('src/domain')(edge.to)) out.push(`${edge.from} -> ${edge.to}`);
      else if (!reached.has(edge.to)) {
        reached.add(edge.to);
        for (const next of GRAPH.get(edge.to) ?? []) {
          if (next.to.startsWith('node:') && !next.typeOnly) out.push(`${next.from} -> ${next.to}`);
          queue.push(next);
        }
      }
    }
    assert.ok(reached.has('src/domain/csv-record.ts'), 'the dashboard writes CSV with the writer');
    assert.deepEqual([...new Set(out)].sort(), []);
  });

  it('finds an import cycle where there is one, type-only imports included', () => {
    const edge = (from: string, to: string): ImportEdge => ({ from, to, typeOnly: true });
    const graph = new Map([
      ['a', [edge('a', 'b')]],
      ['b', [edge('b', 'c'), edge('b', 'pkg')]],
      ['c', [edge('c', 'a')]],
      ['d', [edge('d', 'd')]],
      ['e', [edge('e', 'a')]],
    ]);
    assert.deepEqual(cycles(graph), [['a', 'b', 'c'], ['d']]);
  });

  it('has no import cycle in src/ or web/src', () => {
    assert.deepEqual(cycles(WHOLE_GRAPH), []);
  });

  it('cites the project docs, never the original design file, in src/, test/ and README.md', () => {
    // Spelled in pieces so that this file does not mention it either.
    const name = ['DESIGN', 'md'].join('.');
    const files = [...walk('src'), ...walk('test'), 'README.md'];
    const citing = files.filter((path) => readFileSync(join(REPO, path), 'utf8').includes(name));
    assert.deepEqual(citing, []);
  });
});
