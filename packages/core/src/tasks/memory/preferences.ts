// Why: seed Tier 3: how each user likes things done (PR size, commit style, tests, docs), kept
// per user (`users/{login}/...` records) and read at the lowest priority during hydration. A
// preference has a topic, so a newer statement on the same topic replaces the older one.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { LoginSchema } from '../../envelope/fields.js';
import { RepomemError } from '../../errors.js';
import type { TaskRecord, TaskRecordBackend } from '../record-backend.js';
import { assertTaskRecordRepo } from '../record-rules.js';
import { updateRecord } from './record-update.js';

/** Longest preference text, in characters. */
export const MAX_PREFERENCE_CHARS = 500;

const IsoTime = z.iso.datetime({ offset: true, message: 'expected an ISO 8601 timestamp' });

/** A topic key: lowercase letters, digits and `-`, 1-60 characters. */
export const PreferenceTopicSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,59}$/, { message: 'topic must be 1-60 lowercase letters, digits or "-"' });

/** Zod schema of the `data` of a `preference` task record. */
export const PreferenceDataSchema = z.object({
  /** GitHub login of the user. */
  user: LoginSchema,
  /** Topic key (`pr-size`, `commit-style`, `tests`, `docs`, or one derived from the text). */
  topic: PreferenceTopicSchema,
  /** The preference, as the user stated it. */
  preference: z.string().trim().min(1).max(MAX_PREFERENCE_CHARS),
  /** `explicit` (stated in a task description or set by hand) or `review` (inferred from reviews). */
  source: z.enum(['explicit', 'review']),
  /** Task whose description stated it. */
  task_id: z.string().max(128).optional(),
  /** When it was set. */
  set_at: IsoTime,
});
/** The `data` of a `preference` task record. */
export type PreferenceData = z.output<typeof PreferenceDataSchema>;

/** A stored preference with typed data. */
export interface StoredPreference {
  /** Record id `users/<login>/<topic>`. */
  readonly id: string;
  /** Record revision. */
  readonly revision: number;
  /** Last write. */
  readonly updated_at: string;
  /** Validated data. */
  readonly data: PreferenceData;
}

function checkedLogin(user: string): string {
  const parsed = LoginSchema.safeParse(user);
  if (!parsed.success) {
    throw new RepomemError('INVALID_ARGUMENT', `user must be a GitHub login, got ${JSON.stringify(user)}`, {
      details: { user },
    });
  }
  return parsed.data.toLowerCase();
}

/**
 * Id prefix of a user's preference records: `users/<login>/`, the login lowercased (GitHub
 * logins are case-insensitive) and an app's `[bot]` suffix written `@bot` (`renovate[bot]` ->
 * `users/renovate@bot/`): `@` is in no login, so the mapping is reversible and an app never
 * shares records with the user `renovate-bot`.
 */
export function preferencePrefix(user: string): string {
  return `users/${checkedLogin(user).replace(/\[bot\]$/, '@bot')}/`;
}

/**
 * Where an app's preferences were kept before `@bot`: `[bot]` folded to `-bot`, the prefix of
 * the user `<name>-bot` too. Still read (records whose `user` is the app), never written.
 */
function legacyPreferencePrefix(user: string): string | undefined {
  const login = checkedLogin(user);
  return login.endsWith('[bot]') ? `users/${login.replace(/\[bot\]$/, '-bot')}/` : undefined;
}

/**
 * The preference records of `user`, newest first: those under {@link preferencePrefix}, plus an
 * app's records written under the older `-bot` mapping (a topic already set under the new prefix
 * wins); a record stating another login (the old mapping's collision) is left out. Records whose
 * data does not parse are kept, for the caller to report.
 */
export async function listPreferenceRecords(
  backend: TaskRecordBackend,
  repo: string,
  user: string,
  options: { readonly signal?: AbortSignal } = {},
): Promise<TaskRecord[]> {
  const login = checkedLogin(user);
  const prefixes = [preferencePrefix(user), legacyPreferencePrefix(user)].filter(
    (prefix): prefix is string => prefix !== undefined,
  );
  const lists = await Promise.all(
    prefixes.map((idPrefix) =>
      backend.list({
        repo,
        kind: 'preference',
        idPrefix,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      }),
    ),
  );
  const topics = new Set<string>();
  const kept: TaskRecord[] = [];
  for (const record of lists.flat()) {
    const parsed = PreferenceDataSchema.safeParse(record.data);
    if (parsed.success) {
      if (parsed.data.user.toLowerCase() !== login || topics.has(parsed.data.topic)) continue;
      topics.add(parsed.data.topic);
    }
    kept.push(record);
  }
  if (lists.length === 1) return kept;
  return kept.sort(
    (a, b) => Date.parse(b.updated_at) - Date.parse(a.updated_at) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
  );
}

/** Known topics and the words that name them, tried in order. */
const TOPICS: ReadonlyArray<readonly [string, RegExp]> = [
  [
    'pr-size',
    /\b(small|smaller|atomic|large|big|comprehensive|focused|tiny)\b.*\b(prs?|pull requests?|changes?|diffs?)\b|\bpr size\b/i,
  ],
  ['commit-style', /\bcommits?\b|\bconventional commits?\b/i],
  ['tests', /\btests?\b|\btesting\b|\bcoverage\b/i],
  ['docs', /\bdocs?\b|\bdocumentation\b|\breadme\b|\bcomments?\b/i],
  ['review', /\breview(ers?)?\b/i],
];

/** The topic of a preference text: a known topic when its words appear, else `note-<hash>`. */
export function preferenceTopic(text: string): string {
  for (const [topic, pattern] of TOPICS) if (pattern.test(text)) return topic;
  const normalized = text.toLowerCase().replace(/\s+/g, ' ').trim();
  return `note-${createHash('sha256').update(normalized, 'utf8').digest('hex').slice(0, 12)}`;
}

/** Sentences that state a preference explicitly ("I prefer...", "please always...", "Preference: ..."). */
const EXPLICIT =
  /\b(i (would |'d )?prefer|i like|i want|my preference|preference:|please (always|never|don't|do not|keep|avoid|use|make))\b/i;

/**
 * Explicit preferences stated in a task description: each sentence (or bullet) that says
 * "I prefer...", "I'd prefer...", "I like...", "I want...", "my preference...", "Preference:..." or
 * "please always/never/don't/keep/avoid/use/make...", with its topic. Nothing is inferred.
 */
export function extractExplicitPreferences(description: string): { topic: string; preference: string }[] {
  const found = new Map<string, string>();
  const sentences = description
    .split(/\n+|(?<=[.!?])\s+/)
    .map((sentence) => sentence.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '').trim())
    .filter((sentence) => sentence !== '');
  for (const sentence of sentences) {
    if (!EXPLICIT.test(sentence)) continue;
    const preference = sentence.length <= MAX_PREFERENCE_CHARS ? sentence : sentence.slice(0, MAX_PREFERENCE_CHARS);
    found.set(preferenceTopic(preference), preference);
  }
  return [...found].map(([topic, preference]) => ({ topic, preference }));
}

function fromRecord(record: TaskRecord): StoredPreference {
  const parsed = PreferenceDataSchema.safeParse(record.data);
  if (record.kind !== 'preference' || !parsed.success) {
    throw new RepomemError('INVALID_DOCUMENT', `record ${record.kind}/${record.id} is not a valid preference`);
  }
  return { id: record.id, revision: record.revision, updated_at: record.updated_at, data: parsed.data };
}

/** Typed preference of a `preference` record; `INVALID_DOCUMENT` when invalid. */
export const preferenceFromRecord: (record: TaskRecord) => StoredPreference = fromRecord;

/**
 * Set a user's preference on a topic (derived from the text when not given); a newer
 * preference on the same topic replaces the older one. Returns the stored preference.
 */
export async function setPreference(options: {
  readonly backend: TaskRecordBackend;
  readonly repo: string;
  readonly user: string;
  readonly preference: string;
  readonly topic?: string;
  readonly source?: 'explicit' | 'review';
  readonly taskId?: string;
  readonly now?: () => Date;
}): Promise<StoredPreference> {
  assertTaskRecordRepo(options.repo);
  const now = options.now ?? (() => new Date());
  const parsed = PreferenceDataSchema.safeParse({
    user: options.user,
    topic: options.topic ?? preferenceTopic(String(options.preference)),
    preference: options.preference,
    source: options.source ?? 'explicit',
    ...(options.taskId === undefined ? {} : { task_id: options.taskId }),
    set_at: now().toISOString(),
  });
  if (!parsed.success) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `invalid preference: ${parsed.error.issues.map((i) => i.message).join('; ')}`,
    );
  }
  const data = parsed.data;
  const id = `${preferencePrefix(data.user)}${data.topic}`;
  const { record } = await updateRecord(
    options.backend,
    { repo: options.repo, kind: 'preference', id },
    (current) => {
      // A stored record that is not a valid preference is rewritten.
      const stored = current === undefined ? undefined : PreferenceDataSchema.safeParse(current.data);
      if (
        stored?.success === true &&
        stored.data.preference === data.preference &&
        stored.data.source === data.source
      ) {
        return 'unchanged';
      }
      return { text: `${data.topic.replace(/-/g, ' ')}: ${data.preference}`, data };
    },
    now,
  );
  if (record === undefined) throw new RepomemError('CONFLICT', `preference ${id} vanished while written`);
  return fromRecord(record);
}

/** Explicit preferences of a task description, stored for its user; returns what was stored. */
export async function recordExplicitPreferences(options: {
  readonly backend: TaskRecordBackend;
  readonly repo: string;
  readonly user: string;
  readonly description: string;
  readonly taskId?: string;
  readonly now?: () => Date;
}): Promise<StoredPreference[]> {
  const stored: StoredPreference[] = [];
  for (const { topic, preference } of extractExplicitPreferences(options.description)) {
    stored.push(await setPreference({ ...options, topic, preference, source: 'explicit' }));
  }
  return stored;
}

/**
 * A user's preferences, newest first (see {@link listPreferenceRecords}). A record whose data is
 * not a valid preference is left out and handed to `onSkipped` (never hides the others).
 */
export async function listPreferences(
  backend: TaskRecordBackend,
  repo: string,
  user: string,
  options: { readonly onSkipped?: (skipped: { readonly id: string; readonly error: unknown }) => void } = {},
): Promise<StoredPreference[]> {
  const preferences: StoredPreference[] = [];
  for (const record of await listPreferenceRecords(backend, repo, user)) {
    try {
      preferences.push(fromRecord(record));
    } catch (error) {
      options.onSkipped?.({ id: record.id, error });
    }
  }
  return preferences;
}
