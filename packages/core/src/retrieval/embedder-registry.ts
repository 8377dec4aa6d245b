// Why: `--embedder local | openai:<model> | bedrock:<model>` must mean the same thing in the CLI,
// the MCP server and library code, and must load nothing until asked: a model runtime or an AWS
// SDK in every command's start would slow a cold `repomem search`. So, like the store registry,
// a built-in map names the package of each embedder scheme and `import()` loads it on first use;
// a bundled application registers loaders its bundler can see. Core imports no provider.
import { RepomemError } from '../errors.js';
import type { SchemeEnvironment } from '../registry/scheme.js';
import { assertEmbedder, type Embedder } from './embedder.js';

/** The package that provides each built-in embedder scheme. */
export const BUILTIN_EMBEDDER_PACKAGES: Readonly<Record<string, string>> = /* @__PURE__ */ Object.freeze({
  local: '@repomem/embedder-local',
  openai: '@repomem/embedders',
  bedrock: '@repomem/embedders',
});

/** A parsed embedder spec: `scheme[:model][?key=value&...]`. */
export interface EmbedderSpec {
  /** `local`, `openai`, `bedrock` or a registered scheme. */
  readonly scheme: string;
  /** The model name after the colon (empty when none). */
  readonly model: string;
  /** Options after `?` (e.g. `dimensions=256`, `region=eu-west-1`). */
  readonly options: Readonly<Record<string, string>>;
}

/** What a scheme's `open` receives. */
export interface OpenEmbedderContext extends EmbedderSpec {
  /** Environment for keys, base URLs and regions (default `process.env`). */
  readonly env: SchemeEnvironment;
}

/** An embedder provider a package exports in its `embedderSchemes` array. */
export interface EmbedderScheme {
  /** The spec's scheme, e.g. `openai`. */
  readonly scheme: string;
  /**
   * Build the embedder (cheap: a model loads on its first `embed`).
   * @throws RepomemError `INVALID_ARGUMENT` for a bad model name or option.
   */
  open(context: OpenEmbedderContext): Embedder | Promise<Embedder>;
}

/** What a provider package exports. */
export interface EmbedderSchemeModule {
  readonly embedderSchemes?: readonly EmbedderScheme[];
}

/** Loads a provider package (a bundler-visible `() => import('@repomem/embedders')`). */
export type EmbedderSchemeLoader = () => Promise<EmbedderSchemeModule>;

const loaders = /* @__PURE__ */ new Map<string, EmbedderSchemeLoader>();
const schemes = /* @__PURE__ */ new Map<string, EmbedderScheme>();

/**
 * Register an embedder scheme object, or a loader for a built-in package name (the CLI binary
 * registers `() => import('@repomem/embedder-local')` so its bundler includes the package).
 */
export function registerEmbedderScheme(
  entry: EmbedderScheme | { readonly packageName: string; readonly load: EmbedderSchemeLoader },
): void {
  if ('packageName' in entry) loaders.set(entry.packageName, entry.load);
  else schemes.set(entry.scheme, entry);
}

/**
 * Parse `local`, `openai:text-embedding-3-small`, `bedrock:amazon.titan-embed-text-v2:0?region=us-east-1`.
 * @throws RepomemError `INVALID_ARGUMENT` for an empty spec or a malformed option.
 */
export function parseEmbedderSpec(spec: string): EmbedderSpec {
  const text = spec.trim();
  const question = text.indexOf('?');
  const head = question === -1 ? text : text.slice(0, question);
  const colon = head.indexOf(':');
  const scheme = (colon === -1 ? head : head.slice(0, colon)).toLowerCase();
  const model = colon === -1 ? '' : head.slice(colon + 1);
  if (!/^[a-z][a-z0-9-]*$/.test(scheme)) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `invalid embedder "${spec}": expected local, openai:<model> or bedrock:<model>`,
    );
  }
  const options: Record<string, string> = {};
  if (question !== -1) {
    for (const pair of text.slice(question + 1).split('&')) {
      if (pair === '') continue;
      const equals = pair.indexOf('=');
      if (equals <= 0) throw new RepomemError('INVALID_ARGUMENT', `invalid embedder option "${pair}" in "${spec}"`);
      options[decodeURIComponent(pair.slice(0, equals))] = decodeURIComponent(pair.slice(equals + 1));
    }
  }
  return { scheme, model, options };
}

function defaultEnv(): SchemeEnvironment {
  return (globalThis as { process?: { env?: SchemeEnvironment } }).process?.env ?? {};
}

// A variable specifier keeps bundlers and TypeScript from resolving provider packages from core.
const importPackage = (name: string): Promise<EmbedderSchemeModule> => import(/* @vite-ignore */ name);

async function schemeOf(name: string): Promise<EmbedderScheme> {
  const registered = schemes.get(name);
  if (registered !== undefined) return registered;
  const packageName = BUILTIN_EMBEDDER_PACKAGES[name];
  if (packageName === undefined) {
    const known = [...new Set([...Object.keys(BUILTIN_EMBEDDER_PACKAGES), ...schemes.keys()])].sort().join(', ');
    throw new RepomemError('INVALID_ARGUMENT', `unknown embedder "${name}" (known: ${known})`);
  }
  let module: EmbedderSchemeModule;
  try {
    module = await (loaders.get(packageName) ?? (() => importPackage(packageName)))();
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new RepomemError(
        'PACKAGE_MISSING',
        `the ${name} embedder needs the package ${packageName}: npm install ${packageName}`,
        {
          cause: error,
          details: { package: packageName },
        },
      );
    }
    throw error;
  }
  const found = module.embedderSchemes?.find((candidate) => candidate.scheme === name);
  if (found === undefined) {
    throw new RepomemError(
      'PACKAGE_MISSING',
      `${packageName} does not provide the ${name} embedder (an older version?)`,
      {
        details: { package: packageName },
      },
    );
  }
  schemes.set(name, found);
  return found;
}

/**
 * Open the embedder a spec names, loading its provider package on first use.
 *
 * @example
 * ```ts
 * const embedder = await openEmbedder(process.env.REPOMEM_EMBEDDER ?? 'local');
 * ```
 * @throws RepomemError `INVALID_ARGUMENT` (bad spec or unknown scheme), `PACKAGE_MISSING` (provider not installed).
 */
export async function openEmbedder(
  spec: string,
  options: { readonly env?: SchemeEnvironment } = {},
): Promise<Embedder> {
  const parsed = parseEmbedderSpec(spec);
  const scheme = await schemeOf(parsed.scheme);
  const embedder = await scheme.open({ ...parsed, env: options.env ?? defaultEnv() });
  assertEmbedder(embedder);
  return embedder;
}
