// Why: the binary bundles core from its sources and esbuild splits code per file, giving a file
// to every entry (command) that can reach it through a live module. A barrel (`core/src/index.ts`,
// `store/index.ts`...) that one named import makes live makes every other module behind it
// reachable, so a command that asks for `RepomemError` got the retrieval code, the in-memory store
// and zod in its chunks (a cold `repomem search` loaded 516 KB instead of 144 KB). Rewriting
// `import { a, b } from '@repomem/core'` into imports of the modules that declare `a` and `b`
// takes the barrels out of the graph, so a command loads what it uses and nothing else.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Where one exported name is declared: the module's file and the name it has there (`type`: erased). */
type Origin = { readonly file: string; readonly name: string } | 'type';

const IDENTIFIER = '[A-Za-z_$][\\w$]*';
const DECLARATION = new RegExp(
  `^export\\s+(?:declare\\s+)?(?:async\\s+)?(?:abstract\\s+)?(?:function\\*?|const|let|var|class|enum)\\s+(${IDENTIFIER})`,
  'gm',
);
const TYPE_DECLARATION = new RegExp(`^export\\s+(?:declare\\s+)?(?:interface|type)\\s+(${IDENTIFIER})`, 'gm');
const STAR_REEXPORT = /^export\s+\*\s+from\s+(['"])(\.[^'"]+)\1/gm;
const NAMED_EXPORT = /^export\s+(type\s+)?\{([^}]*)\}(?:\s*from\s+(['"])(\.[^'"]+)\3)?/gm;

/** `./x.js` relative to `from`, as the TypeScript source it names (`x.ts` or `x/index.ts`). */
function sourceFile(from: string, specifier: string): string {
  const target = resolve(dirname(from), specifier);
  if (target.endsWith('.js')) return `${target.slice(0, -3)}.ts`;
  return `${target}/index.ts`;
}

/** `a`, `a as b`, `type T` (dropped: types are erased) as `[imported, local]` pairs. */
function specifiers(list: string): Array<readonly [string, string]> {
  const pairs: Array<readonly [string, string]> = [];
  for (const raw of list.split(',')) {
    const text = raw.trim();
    if (text === '' || text.startsWith('type ')) continue;
    const [imported, local] = text.split(/\s+as\s+/);
    if (imported === undefined) continue;
    pairs.push([imported.trim(), (local ?? imported).trim()]);
  }
  return pairs;
}

/** Every value a module exports, with the module that declares it (re-exports followed). */
function exportsOf(file: string, memo: Map<string, Map<string, Origin>>): Map<string, Origin> {
  const known = memo.get(file);
  if (known !== undefined) return known;
  const names = new Map<string, Origin>();
  memo.set(file, names);
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(TYPE_DECLARATION)) names.set(match[1] as string, 'type');
  for (const match of text.matchAll(DECLARATION)) names.set(match[1] as string, { file, name: match[1] as string });
  for (const match of text.matchAll(STAR_REEXPORT)) {
    for (const [name, origin] of exportsOf(sourceFile(file, match[2] as string), memo)) {
      if (!names.has(name)) names.set(name, origin);
    }
  }
  for (const match of text.matchAll(NAMED_EXPORT)) {
    if (match[1] !== undefined) continue;
    const from = match[4];
    for (const [inner, outer] of specifiers(match[2] as string)) {
      if (from === undefined) names.set(outer, { file, name: inner });
      else {
        const target = sourceFile(file, from);
        names.set(outer, exportsOf(target, memo).get(inner) ?? { file: target, name: inner });
      }
    }
  }
  return names;
}

const CORE_IMPORT = /import\s*\{([^}]*)\}\s*from\s*(['"])@repomem\/core\2;?/g;

/**
 * A rewriter of `import { … } from '@repomem/core'` statements in a file's text into imports of
 * the declaring modules of core's sources; a statement naming anything it cannot place is kept.
 */
export function coreDirectImports(coreEntry: string): (text: string) => string {
  const exported = exportsOf(coreEntry, new Map());
  return (text) =>
    text.replace(CORE_IMPORT, (statement, list: string) => {
      const byFile = new Map<string, string[]>();
      for (const [imported, local] of specifiers(list)) {
        const origin = exported.get(imported);
        if (origin === undefined) return statement;
        if (origin === 'type') continue;
        const entries = byFile.get(origin.file) ?? [];
        entries.push(origin.name === local ? local : `${origin.name} as ${local}`);
        byFile.set(origin.file, entries);
      }
      return [...byFile]
        .map(([file, names]) => `import { ${names.join(', ')} } from ${JSON.stringify(file)};`)
        .join('\n');
    });
}
