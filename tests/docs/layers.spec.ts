/**
 * The import rules of docs/architecture.md ("Import rules"), checked on the
 * source so the layering cannot drift: which folder of src/ may import which,
 * tokens.ts importing types only, and no import cycle between files, type
 * imports included. Imports are read with TypeScript's own parser.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';

const ROOT = path.join(__dirname, '..', '..');
const SRC = path.join(ROOT, 'src');

/** A module's unit: its folder under src/, or the top-level file. */
function unitOf(file: string): string {
  const relative = path.relative(SRC, file).split(path.sep);
  return relative.length > 1 ? `${relative[0]}/` : relative[0];
}

interface IImport {
  from: string;
  to: string;
  typeOnly: boolean;
  /** An `import()` call: the module is loaded when the call runs. */
  dynamic: boolean;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      return sourceFiles(file);
    }
    return /\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

function resolve(from: string, specifier: string): string | null {
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [
    `${base}.ts`,
    `${base}.tsx`,
    path.join(base, 'index.ts')
  ]) {
    if (fs.existsSync(candidate)) {
      return candidate;
    }
  }
  return null;
}

/** Whether an import or export declaration brings in types only. */
function typeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isImportDeclaration(node)) {
    const clause = node.importClause;
    if (!clause) {
      return false; // a side-effect import
    }
    if (clause.isTypeOnly) {
      return true;
    }
    const bindings = clause.namedBindings;
    return (
      !clause.name &&
      bindings !== undefined &&
      ts.isNamedImports(bindings) &&
      bindings.elements.length > 0 &&
      bindings.elements.every(element => element.isTypeOnly)
    );
  }
  if (node.isTypeOnly) {
    return true;
  }
  const clause = node.exportClause;
  return (
    clause !== undefined &&
    ts.isNamedExports(clause) &&
    clause.elements.length > 0 &&
    clause.elements.every(element => element.isTypeOnly)
  );
}

function importsOf(file: string): IImport[] {
  const text = fs.readFileSync(file, 'utf-8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest);
  const found: IImport[] = [];
  for (const node of source.statements) {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      node.moduleSpecifier.text.startsWith('.')
    ) {
      const to = resolve(file, node.moduleSpecifier.text);
      if (to) {
        found.push({
          from: file,
          to,
          typeOnly: typeOnly(node),
          dynamic: false
        });
      }
    }
  }
  // import() calls, wherever they are
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments.length === 1 &&
      ts.isStringLiteral(node.arguments[0]) &&
      node.arguments[0].text.startsWith('.')
    ) {
      const to = resolve(file, node.arguments[0].text);
      if (to) {
        found.push({ from: file, to, typeOnly: false, dynamic: true });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const FILES = sourceFiles(SRC);
const IMPORTS = FILES.flatMap(importsOf);

/**
 * What each unit may import besides itself (docs/architecture.md, "Import
 * rules"). `tokens.ts` and `limits.ts` are open to every unit but common/
 * (limits.ts only).
 */
/** Every unit but src/index.ts and src/later.ts themselves. */
const EVERY_UNIT = [
  'assistants/',
  'relay/',
  'common/',
  'limits.ts',
  'tokens.ts',
  'api.ts',
  'access/',
  'review/',
  'selection/',
  'propose/',
  'revert/',
  'jupyter/',
  'webmcp/',
  'agent-panel/'
];

const ALLOWED: Record<string, string[]> = {
  'common/': ['limits.ts'],
  'limits.ts': [],
  // the public API: declared in itself, on common/ alone
  'api.ts': ['common/'],
  'tokens.ts': [
    'api.ts',
    'common/',
    'access/',
    'review/',
    'propose/',
    'selection/',
    'revert/'
  ],
  'access/': ['common/', 'limits.ts', 'tokens.ts', 'api.ts'],
  'review/': ['common/', 'limits.ts', 'tokens.ts', 'api.ts', 'access/'],
  'selection/': ['common/', 'limits.ts', 'tokens.ts', 'api.ts', 'access/'],
  'propose/': ['common/', 'limits.ts', 'tokens.ts', 'api.ts', 'access/'],
  'revert/': ['common/', 'limits.ts', 'tokens.ts', 'api.ts', 'access/'],
  'jupyter/': [
    'common/',
    'limits.ts',
    'tokens.ts',
    'api.ts',
    'access/',
    'review/',
    'selection/',
    'propose/',
    'revert/'
  ],
  'webmcp/': [
    'common/',
    'limits.ts',
    'tokens.ts',
    'api.ts',
    'access/',
    'review/',
    'selection/',
    'propose/',
    'revert/',
    'jupyter/',
    // the handlers' chunk, loaded at the first call (import() only)
    'later.ts'
  ],
  'relay/': ['common/', 'limits.ts', 'tokens.ts', 'api.ts'],
  // the panel's frame, the status item and the Activity stream's model
  'agent-panel/': [
    'common/',
    'limits.ts',
    'tokens.ts',
    'api.ts',
    'access/',
    'review/',
    'selection/',
    'propose/',
    'revert/'
  ],
  // a client of the registry: the in-app assistants' tool registries
  'assistants/': ['common/', 'limits.ts', 'tokens.ts', 'api.ts'],
  // what the page fetches once its start is over: the tools' handlers and
  // the features' UI, in one chunk
  'later.ts': EVERY_UNIT,
  // the page's start: the Agent panel's frame, the stable cell ids, and the
  // loader of our other plugins with the public registry's plugin
  'index.ts': [...EVERY_UNIT, 'load-plugins.ts'],
  'load-plugins.ts': [
    'api.ts',
    'tokens.ts',
    'webmcp/',
    'assistants/',
    'plugins.ts'
  ],
  // our other plugins, fetched once the layout is restored (import() only)
  'plugins.ts': EVERY_UNIT
};

const name = (file: string) => path.relative(ROOT, file);

/**
 * A feature's folder has two layers. Its model (the files named otherwise)
 * sits under the semantic layer, which uses it (the rules above). Its face
 * sits on top of everything: its plugin files, the tools' handlers and the
 * panel sections, named `plugin`, `wiring`, `tools` or `section`, alone or as
 * the first or last word of the name (`section-model.ts`,
 * `thread-tools.ts`, `activity-plugin.ts`). A face file may import every
 * unit but `src/index.ts`; only another face file, `src/later.ts` or
 * `src/index.ts` imports it.
 *
 * A plugin file (`plugin.ts` or `<name>-plugin.ts`) is where a feature is
 * put together: only `src/index.ts` (or another plugin file) imports it. A
 * wiring file (`wiring.ts` or `<name>-wiring.ts`) is the part of a plugin
 * that waits until the start is over: only `src/later.ts` imports it.
 */
const inFolder = (file: string) =>
  path.relative(SRC, file).split(path.sep).length > 1;

const isFaceFile = (file: string) =>
  inFolder(file) &&
  /^(plugin|wiring|tools|section)([-.])|-(plugin|wiring|tools|section)\.tsx?$/.test(
    path.basename(file)
  );

const isPluginFile = (file: string) =>
  inFolder(file) && /(^|-)(plugin|wiring)\.tsx?$/.test(path.basename(file));

const isWiringFile = (file: string) =>
  isPluginFile(file) && /(^|-)wiring\.tsx?$/.test(path.basename(file));

const LATER = path.join(SRC, 'later.ts');
const PLUGINS = path.join(SRC, 'plugins.ts');
const INDEX = path.join(SRC, 'index.ts');

/** Whether `file` is src/index.ts or src/plugins.ts, where plugins are listed. */
const listsPlugins = (file: string) => file === INDEX || file === PLUGINS;

/**
 * The files `roots` run, with their static imports, on: by default what
 * the page runs before the tools are registered, the start (index.ts) and
 * our plugins' chunk (plugins.ts).
 */
function startClosure(roots: string[] = [INDEX, PLUGINS]): Set<string> {
  const seen = new Set<string>(roots);
  const queue = [...seen];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const { from, to, typeOnly, dynamic } of IMPORTS) {
      if (from === file && !typeOnly && !dynamic && !seen.has(to)) {
        seen.add(to);
        queue.push(to);
      }
    }
  }
  return seen;
}

describe('import rules (docs/architecture.md)', () => {
  it('reads the imports at all (the checks below are not vacuous)', () => {
    expect(FILES.length).toBeGreaterThan(50);
    expect(IMPORTS.length).toBeGreaterThan(300);
  });

  it('every unit of src/ has its rule', () => {
    const units = [...new Set(FILES.map(unitOf))].sort();
    expect(units.filter(unit => !(unit in ALLOWED))).toEqual([]);
  });

  it('each unit imports only what its layer may', () => {
    const broken = IMPORTS.filter(({ from, to }) => {
      const [a, b] = [unitOf(from), unitOf(to)];
      if (isFaceFile(from)) {
        return b === 'index.ts';
      }
      return a !== b && !ALLOWED[a].includes(b);
    }).map(({ from, to }) => `${name(from)} -> ${name(to)}`);
    expect(broken).toEqual([]);
  });

  it('a face file is imported only by another face file, src/later.ts, src/index.ts or src/plugins.ts', () => {
    const faces = FILES.filter(isFaceFile).map(file => name(file));
    // each feature's face: its plugin, its tools' handlers, its section
    for (const face of [
      'src/review/plugin.ts',
      'src/review/tools.ts',
      'src/review/thread-tools.ts',
      'src/review/section.tsx',
      'src/review/section-model.ts',
      'src/selection/tools.ts',
      'src/agent-panel/activity-section.tsx'
    ]) {
      expect(faces).toContain(face);
    }
    expect(faces).not.toContain('src/review/storage.ts');
    const broken = IMPORTS.filter(
      ({ from, to }) =>
        isFaceFile(to) &&
        !isFaceFile(from) &&
        from !== LATER &&
        !listsPlugins(from)
    ).map(({ from, to }) => `${name(from)} -> ${name(to)}`);
    expect(broken).toEqual([]);
  });

  it('a plugin file is imported only by src/index.ts, src/plugins.ts or another plugin file', () => {
    expect(FILES.filter(isPluginFile).length).toBeGreaterThan(5);
    const broken = IMPORTS.filter(
      ({ from, to }) =>
        isPluginFile(to) &&
        !isWiringFile(to) &&
        !listsPlugins(from) &&
        !isPluginFile(from)
    ).map(({ from, to }) => `${name(from)} -> ${name(to)}`);
    expect(broken).toEqual([]);
  });

  it('a wiring file is imported only by src/later.ts', () => {
    expect(FILES.filter(isWiringFile).length).toBeGreaterThan(5);
    const broken = IMPORTS.filter(
      ({ from, to }) => isWiringFile(to) && from !== LATER
    ).map(({ from, to }) => `${name(from)} -> ${name(to)}`);
    expect(broken).toEqual([]);
  });

  it('src/later.ts is loaded with import() only, so its chunk stays apart from the start', () => {
    // one loader, `fromLater` in src/webmcp/tools.ts, which the plugins
    // share (and the type import beside it)
    const loads = IMPORTS.filter(({ to }) => to === LATER);
    expect(loads.some(({ dynamic }) => dynamic)).toBe(true);
    expect(
      loads
        .filter(({ dynamic, typeOnly }) => !dynamic && !typeOnly)
        .map(({ from }) => name(from))
    ).toEqual([]);
  });

  it('src/plugins.ts is loaded with import() only, once the layout is restored: the page creates the app without it', () => {
    const loads = IMPORTS.filter(({ to }) => to === PLUGINS);
    expect(loads.map(({ from, dynamic }) => [name(from), dynamic])).toEqual([
      ['src/load-plugins.ts', true]
    ]);
    // what the page runs before it creates the app: no plugin of
    // src/plugins.ts, none of what they import but the tokens and helpers
    const before = startClosure([INDEX]);
    const listed = IMPORTS.filter(({ from }) => from === PLUGINS).map(
      ({ to }) => to
    );
    expect(listed.length).toBeGreaterThan(10);
    expect([...before].filter(file => listed.includes(file))).toEqual([]);
    expect(before.size).toBeLessThan(20);
  });

  it('the start reaches none of what src/later.ts brings: no wiring file, no module it names', () => {
    const start = startClosure();
    expect(start.size).toBeGreaterThan(30);
    const named = IMPORTS.filter(({ from }) => from === LATER).map(
      ({ to }) => to
    );
    expect(named.length).toBeGreaterThan(5);
    const reached = [...start].filter(
      file => file === LATER || isWiringFile(file) || named.includes(file)
    );
    expect(reached.map(name)).toEqual([]);
  });

  it('tokens.ts imports types only (and the public API it re-exports): it declares the contract, no implementation runs for it', () => {
    const values = IMPORTS.filter(
      ({ from, to, typeOnly }) =>
        unitOf(from) === 'tokens.ts' && !typeOnly && unitOf(to) !== 'api.ts'
    ).map(({ to }) => name(to));
    expect(values).toEqual([]);
  });

  it('the package exports the public API alone: src/index.ts re-exports src/api.ts and nothing else', () => {
    const index = path.join(SRC, 'index.ts');
    const source = ts.createSourceFile(
      index,
      fs.readFileSync(index, 'utf-8'),
      ts.ScriptTarget.Latest
    );
    const reexports = source.statements
      .filter(ts.isExportDeclaration)
      .map(node =>
        node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)
          ? node.moduleSpecifier.text
          : '(local)'
      );
    expect(reexports).toEqual(['./api']);
    // and package.json lets nothing else be imported: one code entry
    const pkg = JSON.parse(
      fs.readFileSync(path.join(ROOT, 'package.json'), 'utf-8')
    ) as { exports: Record<string, unknown> };
    const code = Object.keys(pkg.exports).filter(
      key => key !== './package.json' && !key.startsWith('./style/')
    );
    expect(code).toEqual(['.']);
    expect(pkg.exports['.']).toEqual({
      types: './lib/index.d.ts',
      default: './lib/index.js'
    });
  });

  it('no import cycle between files, type imports included', () => {
    const edges = new Map<string, string[]>();
    for (const { from, to } of IMPORTS) {
      edges.set(from, [...(edges.get(from) ?? []), to]);
    }
    // Tarjan's strongly connected components: each of more than one file
    // is a cycle
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const cycles: string[][] = [];
    let next = 0;
    const visit = (file: string) => {
      index.set(file, next);
      low.set(file, next);
      next++;
      stack.push(file);
      onStack.add(file);
      for (const to of edges.get(file) ?? []) {
        if (!index.has(to)) {
          visit(to);
          low.set(file, Math.min(low.get(file)!, low.get(to)!));
        } else if (onStack.has(to)) {
          low.set(file, Math.min(low.get(file)!, index.get(to)!));
        }
      }
      if (low.get(file) === index.get(file)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(name(member));
        } while (member !== file);
        if (component.length > 1) {
          cycles.push(component.sort());
        }
      }
    };
    for (const file of FILES) {
      if (!index.has(file)) {
        visit(file);
      }
    }
    expect(cycles).toEqual([]);
  });
});
