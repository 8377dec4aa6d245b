// Why: search tests and benchmarks need memory trees of any size that look like real ones
// (MEMORY.md/PROJECT.md bullets, daily logs, `gh --json` mirror files) and are identical on
// every run. Everything here derives from a seeded PRNG; nothing reads the clock or Math.random.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { RepomemError } from '../errors.js';
import { normalizeDocumentPath } from '../store/paths.js';

/** One generated file of a memory tree. */
export interface CorpusFile {
  /** POSIX path relative to the memory root. */
  readonly path: string;
  /** UTF-8 text content. */
  readonly content: string;
}

/** Options of {@link generateMemoryCorpus}. */
export interface MemoryCorpusOptions {
  /** Seed of the PRNG; the same options always give the same files. */
  readonly seed: number | string;
  /** Number of `github/<owner>/<repo>/{issue,pull,discussion}-<n>.json` mirror files. */
  readonly jsonFiles: number;
  /** Number of daily logs `daily/YYYY-MM-DD.md` (default 14). */
  readonly dailyDays?: number;
  /** Bullets spread over the sections of MEMORY.md (default 40). */
  readonly memoryBullets?: number;
  /** Repository owner of the mirror paths (default `acme`). */
  readonly owner?: string;
  /** Repository name of the mirror paths (default `rocket`). */
  readonly repo?: string;
  /** First day of activity, `YYYY-MM-DD` (default `2026-03-01`). */
  readonly startDate?: string;
}

/** A small, fast, seedable PRNG (mulberry32). */
export interface SeededRandom {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number;
  /** Uniformly chosen element. */
  pick<T>(items: readonly T[]): T;
  /** Element chosen with a Zipf-like skew towards the start of the list (common words first). */
  skewed<T>(items: readonly T[]): T;
  /** True with probability `p`. */
  chance(p: number): boolean;
}

function hashSeed(seed: number | string): number {
  const text = String(seed);
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Create a deterministic PRNG from a number or string seed. */
export function createSeededRandom(seed: number | string): SeededRandom {
  let state = hashSeed(seed);
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const random: SeededRandom = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)] as (typeof items)[number],
    skewed: (items) => items[Math.floor(next() ** 2.2 * items.length)] as (typeof items)[number],
    chance: (p) => next() < p,
  };
  return random;
}

// Vocabulary, most common first within each list (the skewed picker favours the start).
const COMPONENTS = [
  'workflow',
  'agent',
  'memory',
  'review',
  'orchestrator',
  'dispatch',
  'prompt',
  'policy',
  'sync',
  'rubrics',
  'checkout',
  'scheduler',
  'planner',
  'triage',
  'mirror',
  'cursor',
  'installer',
  'labels',
  'discussion',
  'runtime',
  'envelope',
  'synthesis',
  'handoff',
  'telemetry',
  'sandbox',
  'webhook',
  'tokenizer',
  'snapshot',
  'ledger',
  'quarantine',
] as const;
const VERBS = [
  'fix',
  'add',
  'update',
  'remove',
  'document',
  'refactor',
  'validate',
  'harden',
  'retry',
  'cache',
  'migrate',
  'rename',
  'split',
  'simplify',
  'deduplicate',
  'throttle',
  'backfill',
  'instrument',
  'paginate',
  'reconcile',
] as const;
const OBJECTS = [
  'route',
  'branch',
  'comment',
  'label',
  'token',
  'state',
  'cursor',
  'summary',
  'issue body',
  'pull request',
  'permission check',
  'access policy',
  'status comment',
  'base branch',
  'lock file',
  'commit trailer',
  'dist bundle',
  'daily summary',
  'rate limit',
  'session id',
  'thread key',
  'approval gate',
  'stale review',
  'merge queue',
  'exit code',
] as const;
const QUALIFIERS = [
  'for scheduled runs',
  'in the sync workflow',
  'before provider setup',
  'after checkout',
  'on fork pull requests',
  'when the memory branch is missing',
  'for orchestrated follow-ups',
  'in non-interactive workflows',
  'for public repos',
  'under concurrent pushes',
  'when the cursor is invalid',
  'for stacked pull requests',
  'with a read-only policy',
] as const;
const FILLER = [
  'the',
  'and',
  'to',
  'of',
  'a',
  'in',
  'is',
  'that',
  'we',
  'should',
  'it',
  'for',
  'this',
  'on',
  'with',
  'be',
  'when',
  'not',
  'but',
  'so',
  'keep',
  'still',
  'also',
  'only',
  'then',
  'instead',
  'because',
  'each',
  'every',
  'once',
] as const;
const TECH = [
  'npm',
  'node',
  'typescript',
  'github',
  'actions',
  'yaml',
  'json',
  'jq',
  'graphql',
  'rest',
  'cli',
  'tests',
  'ci',
  'docs',
  'lint',
  'build',
  'release',
  'changelog',
  'semver',
  'lockfile',
  'sqlite',
  'fts5',
  'vitest',
  'biome',
  'tsup',
  'pnpm',
  'turbo',
  'typedoc',
  'zod',
  'esm',
  'cjs',
  'bun',
  'deno',
  'wasm',
  'docker',
  'kubernetes',
  'terraform',
] as const;
const RARE = [
  'idempotency',
  'backpressure',
  'heuristic',
  'tombstone',
  'watermark',
  'debounce',
  'quorum',
  'jitter',
  'canary',
  'linearizable',
  'monotonic',
  'sharding',
  'bloom',
  'merkle',
  'vector',
  'embedding',
  'hysteresis',
  'zeppelin',
  'kaleidoscope',
  'marzipan',
  'obsidian',
  'quokka',
  'narwhal',
  'saffron',
  'tundra',
  'yggdrasil',
] as const;
const PEOPLE = [
  'app/sepo-agent-app',
  'lolipopshock',
  'octocat',
  'mona',
  'hubot',
  'dependabot',
  'rustacean',
  'gopher',
  'pythonista',
  'ferris',
  'tux',
  'duke',
  'wilber',
  'moby',
  'kodi',
  'pixel',
  'nova',
  'orion',
  'vega',
  'lyra',
] as const;
const LABELS: ReadonlyArray<readonly [string, string, string]> = [
  ['agent', 'Handled by the agent', '0e8a16'],
  ['bug', 'Something is not working', 'd73a4a'],
  ['enhancement', 'New feature or request', 'a2eeef'],
  ['documentation', 'Improvements or additions to documentation', '0075ca'],
  ['priority/p1', 'Project management: high priority', 'b60205'],
  ['priority/p2', 'Project management: medium priority', 'fbca04'],
  ['priority/p3', 'Project management: low priority', 'c2e0c6'],
  ['effort/low', 'Project management: low effort', 'c2e0c6'],
  ['effort/medium', 'Project management: medium effort', 'fbca04'],
  ['effort/high', 'Project management: high effort', 'b60205'],
  ['good first issue', 'Good for newcomers', '7057ff'],
];
const MEMORY_SECTIONS = ['Durable', 'Conventions', 'Open questions', 'Gotchas'] as const;
const DISCUSSION_CATEGORIES = ['Ideas', 'General', 'Q&A', 'Show and tell', 'Announcements'] as const;
const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Generates sentences and records from the vocabulary above. */
class CorpusWriter {
  readonly #random: SeededRandom;

  constructor(random: SeededRandom) {
    this.#random = random;
  }

  get random(): SeededRandom {
    return this.#random;
  }

  id(prefix: string): string {
    let text = `${prefix}_kwDO`;
    for (let index = 0; index < 16; index++) text += ID_ALPHABET[Math.floor(this.#random.next() * ID_ALPHABET.length)];
    return text;
  }

  title(): string {
    const r = this.#random;
    const verb = r.skewed(VERBS);
    const head = `${verb.charAt(0).toUpperCase()}${verb.slice(1)} ${r.skewed(COMPONENTS)} ${r.skewed(OBJECTS)}`;
    return r.chance(0.5) ? `${head} ${r.pick(QUALIFIERS)}` : head;
  }

  sentence(): string {
    const r = this.#random;
    const words: string[] = [];
    const length = r.int(8, 20);
    for (let index = 0; index < length; index++) {
      const roll = r.next();
      if (roll < 0.45) words.push(r.skewed(FILLER));
      else if (roll < 0.65) words.push(r.skewed(COMPONENTS));
      else if (roll < 0.75) words.push(r.skewed(VERBS));
      else if (roll < 0.87) words.push(r.skewed(OBJECTS));
      else if (roll < 0.97) words.push(r.skewed(TECH));
      else words.push(r.pick(RARE));
    }
    if (r.chance(0.3)) words.push(r.pick(QUALIFIERS));
    const text = words.join(' ');
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
  }

  paragraph(sentences: number): string {
    return Array.from({ length: sentences }, () => this.sentence()).join(' ');
  }

  body(): string {
    const r = this.#random;
    const parts = [`## Summary\n${this.paragraph(r.int(1, 3))}`];
    const bullets = r.int(0, 5);
    if (bullets > 0) parts.push(Array.from({ length: bullets }, () => `- ${this.sentence()}`).join('\n'));
    if (r.chance(0.4))
      parts.push(`## Testing\n- \`npm test\` ${r.pick(['passes', 'fails on main', 'is flaky'])}\n- ${this.sentence()}`);
    return parts.join('\n\n');
  }

  bullet(): string {
    const r = this.#random;
    return r.chance(0.5) ? `${this.title()}.` : this.sentence();
  }
}

function isoDate(start: number, dayOffset: number, secondOffset = 0): string {
  return new Date(start + dayOffset * 86_400_000 + secondOffset * 1000).toISOString().replace('.000Z', 'Z');
}

function parseStartDate(text: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const time = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : Number.NaN;
  if (!Number.isFinite(time)) {
    throw new RepomemError('INVALID_ARGUMENT', `startDate must be YYYY-MM-DD, got ${JSON.stringify(text)}`);
  }
  return time;
}

function assertCount(name: string, value: number, max: number): void {
  if (!Number.isSafeInteger(value) || value < 0 || value > max) {
    throw new RepomemError('INVALID_ARGUMENT', `${name} must be an integer from 0 to ${max}, got ${value}`);
  }
}

type MirrorKind = 'issue' | 'pull' | 'discussion';

function mirrorRecord(
  writer: CorpusWriter,
  kind: MirrorKind,
  number: number,
  slug: string,
  start: number,
  span: number,
): Record<string, unknown> {
  const r = writer.random;
  const day = r.int(0, Math.max(0, span - 1));
  const createdAt = isoDate(start, day, r.int(0, 86_399));
  const updatedAt = isoDate(start, day + r.int(0, 3), r.int(0, 86_399));
  const login = r.skewed(PEOPLE);
  const title = writer.title();
  const commentCount = r.int(0, 6);
  const comment = (index: number): Record<string, unknown> => ({
    id: writer.id(kind === 'discussion' ? 'DC' : 'IC'),
    author: { login: r.skewed(PEOPLE) },
    authorAssociation: r.pick(['OWNER', 'MEMBER', 'CONTRIBUTOR', 'NONE']),
    body: r.chance(0.3)
      ? `${writer.paragraph(1)}\n\n- ${writer.sentence()}\n- ${writer.sentence()}`
      : writer.paragraph(r.int(1, 3)),
    createdAt: isoDate(start, day + index, r.int(0, 86_399)),
    url: `https://github.com/${slug}/${kind === 'pull' ? 'pull' : kind === 'issue' ? 'issues' : 'discussions'}/${number}#comment-${index}`,
  });
  if (kind === 'discussion') {
    return {
      number,
      title,
      url: `https://github.com/${slug}/discussions/${number}`,
      body: writer.body(),
      createdAt,
      updatedAt,
      author: { login },
      category: { name: r.pick(DISCUSSION_CATEGORIES) },
      comments: { nodes: Array.from({ length: commentCount }, (_, index) => comment(index)) },
    };
  }
  const labels = Array.from({ length: r.int(0, 3) }, () => {
    const [name, description, color] = r.pick(LABELS) as readonly [string, string, string];
    return { id: writer.id('LA'), name, description, color };
  });
  const closed = r.chance(0.6);
  const record: Record<string, unknown> = {
    author: { id: writer.id('U'), is_bot: login.startsWith('app/'), login, name: login.replace('app/', '') },
    body: writer.body(),
    closedAt: closed ? updatedAt : null,
    comments: Array.from({ length: commentCount }, (_, index) => comment(index)),
    createdAt,
    labels,
    number,
    state: kind === 'pull' ? (closed ? r.pick(['MERGED', 'CLOSED']) : 'OPEN') : closed ? 'CLOSED' : 'OPEN',
    title,
    updatedAt,
    url: `https://github.com/${slug}/${kind === 'pull' ? 'pull' : 'issues'}/${number}`,
  };
  if (kind === 'pull') {
    record.baseRefName = 'main';
    record.headRefName = `agent/implement-issue-${r.int(1, number + 1)}/${r.pick(['codex', 'claude'])}-${r.int(1e9, 9e9)}`;
    record.files = Array.from({ length: r.int(1, 5) }, () => ({
      path: `.agent/src/${r.skewed(COMPONENTS)}/${r.skewed(OBJECTS).replace(/ /g, '-')}.ts`,
      additions: r.int(0, 400),
      deletions: r.int(0, 200),
      changeType: r.pick(['MODIFIED', 'ADDED', 'DELETED']),
    }));
    record.mergedAt = record.state === 'MERGED' ? updatedAt : null;
    record.reviewDecision = r.pick(['', 'APPROVED', 'CHANGES_REQUESTED']);
    record.reviews = Array.from({ length: r.int(0, 2) }, () => ({
      id: writer.id('PRR'),
      author: { login: r.skewed(PEOPLE) },
      body: writer.paragraph(1),
      state: r.pick(['COMMENTED', 'APPROVED', 'CHANGES_REQUESTED']),
      submittedAt: updatedAt,
    }));
  }
  return record;
}

function memoryFile(writer: CorpusWriter, bullets: number): string {
  const sections: string[][] = MEMORY_SECTIONS.map(() => []);
  for (let index = 0; index < bullets; index++) sections[index % sections.length]?.push(`- ${writer.bullet()}`);
  const body = MEMORY_SECTIONS.map((name, index) => `## ${name}\n${(sections[index] ?? []).join('\n')}`);
  return `# Memory\n\n${body.join('\n\n')}\n`;
}

function projectFile(writer: CorpusWriter, owner: string, repo: string): string {
  const r = writer.random;
  const list = (count: number): string => Array.from({ length: count }, () => `- ${writer.bullet()}`).join('\n');
  return [
    '# Project',
    '',
    '## Overview',
    `- ${owner}/${repo} builds an agent runtime; ${writer.sentence()}`,
    list(r.int(2, 4)),
    '',
    '## Architecture',
    list(r.int(3, 6)),
    '',
    '## Roadmap',
    list(r.int(2, 5)),
    '',
  ].join('\n');
}

function dailyFile(writer: CorpusWriter, date: string, slug: string, maxNumber: number): string {
  const r = writer.random;
  const lines = Array.from({ length: r.int(3, 8) }, () => {
    const ref = maxNumber > 0 ? ` (${slug}#${r.int(1, maxNumber)})` : '';
    return `- ${writer.bullet()}${ref}`;
  });
  return `# Daily log for ${date}\n\n## Activity\n${lines.join('\n')}\n`;
}

const README = `# Memory

Durable, repository-scoped memory for the agent.

- \`PROJECT.md\`: what the project is and how it is built.
- \`MEMORY.md\`: durable conventions and open questions, as bullets under \`##\` sections.
- \`daily/YYYY-MM-DD.md\`: what happened each day.
- \`github/<owner>/<repo>/{issue,pull,discussion}-<n>.json\`: mirrored GitHub threads (\`gh --json\` output).

Search with \`repomem search "<query>"\`; edit bullets with \`repomem update\`.
`;

/**
 * Generate a deterministic memory tree: `README.md`, `MEMORY.md`, `PROJECT.md`, `daily/*.md`,
 * `daily/.gitkeep`, `github/.gitkeep` and `jsonFiles` mirror files shaped like `gh --json` dumps
 * (title, body, state, author.login, labels[], comments[{author, body, createdAt}], url...).
 * Vocabulary is skewed (a few words are common, many rare), so queries hit some documents but
 * not all. Files are sorted by path. 20,000 mirror files take a few seconds at most.
 */
export function generateMemoryCorpus(options: MemoryCorpusOptions): CorpusFile[] {
  const dailyDays = options.dailyDays ?? 14;
  const memoryBullets = options.memoryBullets ?? 40;
  assertCount('jsonFiles', options.jsonFiles, 1_000_000);
  assertCount('dailyDays', dailyDays, 3660);
  assertCount('memoryBullets', memoryBullets, 100_000);
  const owner = options.owner ?? 'acme';
  const repo = options.repo ?? 'rocket';
  const slug = `${owner}/${repo}`;
  const start = parseStartDate(options.startDate ?? '2026-03-01');
  const writer = new CorpusWriter(createSeededRandom(options.seed));
  const files: CorpusFile[] = [
    { path: 'README.md', content: README },
    { path: 'MEMORY.md', content: memoryFile(writer, memoryBullets) },
    { path: 'PROJECT.md', content: projectFile(writer, owner, repo) },
    { path: 'daily/.gitkeep', content: '' },
    { path: 'github/.gitkeep', content: '' },
  ];
  for (let day = 0; day < dailyDays; day++) {
    const date = isoDate(start, day).slice(0, 10);
    files.push({ path: `daily/${date}.md`, content: dailyFile(writer, date, slug, options.jsonFiles) });
  }
  const span = Math.max(dailyDays, 1);
  for (let number = 1; number <= options.jsonFiles; number++) {
    const roll = writer.random.next();
    const kind: MirrorKind = roll < 0.5 ? 'issue' : roll < 0.85 ? 'pull' : 'discussion';
    const record = mirrorRecord(writer, kind, number, slug, start, span);
    files.push({
      path: normalizeDocumentPath(`github/${owner}/${repo}/${kind}-${number}.json`),
      content: `${JSON.stringify(record, null, 2)}\n`,
    });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Write generated files under `directory` (created as needed). Paths are validated with the
 * store's path rules, so a file can never land outside `directory`.
 */
export async function writeCorpusToDirectory(directory: string, files: readonly CorpusFile[]): Promise<void> {
  const root = resolve(directory);
  const targets = files.map((file) => {
    const target = join(root, ...normalizeDocumentPath(file.path).split('/'));
    if (!target.startsWith(root + sep)) {
      throw new RepomemError('INVALID_PATH', `corpus path escapes the target directory: ${file.path}`);
    }
    return { target, content: file.content };
  });
  const directories = new Set(targets.map((entry) => dirname(entry.target)));
  for (const path of [...directories].sort()) await mkdir(path, { recursive: true });
  const concurrency = 64;
  for (let index = 0; index < targets.length; index += concurrency) {
    await Promise.all(targets.slice(index, index + concurrency).map((entry) => writeFile(entry.target, entry.content)));
  }
}
