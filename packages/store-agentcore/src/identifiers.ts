// Why: AgentCore identifiers are narrower than the names repomem deals in (`vercel/next.js`,
// logins with `.` or `@`, task ids, document paths). Every name goes through one reversible,
// collision-free escaping here, so two names never share an actor, session or namespace, a name
// is always recovered from its identifier, and a name that cannot be mapped (too long, empty) is
// an INVALID_ARGUMENT naming the rule, never a silent empty read.
import { createHash } from 'node:crypto';
import { RepomemError } from '@repomem/core';
import {
  ACTOR_ID_PATTERN,
  MAX_ACTOR_ID_CHARS,
  MAX_NAMESPACE_CHARS,
  MAX_SESSION_ID_CHARS,
  NAMESPACE_PATTERN,
  SESSION_ID_PATTERN,
} from './model-patterns.js';

const VERBATIM = /^[A-Za-z0-9-]$/;
const ALNUM = /^[A-Za-z0-9]$/;
const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true });

function escapeCharacter(character: string): string {
  let out = '';
  for (const byte of encoder.encode(character)) out += `_${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}

function unmappable(what: string, name: string, problem: string): RepomemError {
  return new RepomemError(
    'INVALID_ARGUMENT',
    `cannot map ${what} ${JSON.stringify(name)} to an AgentCore identifier: ${problem}`,
    { details: { name, what } },
  );
}

/**
 * Escape one name segment into the characters every AgentCore identifier accepts: letters,
 * digits and `-` stay; every other character (including `_`, `.`, `@`, `/` and non-ASCII)
 * becomes `_` and two upper-case hex digits per UTF-8 byte. A segment whose first character is
 * not a letter or a digit other than `0` starts with `0` and that character escaped, because
 * identifiers must start with a letter or digit. The mapping is injective and
 * {@link unescapeSegment} inverts it. Throws `INVALID_ARGUMENT` for an empty name or a lone surrogate.
 */
export function escapeSegment(name: string, what = 'name'): string {
  if (typeof name !== 'string' || name.length === 0) throw unmappable(what, String(name), 'it is empty');
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(name)) {
    throw unmappable(what, name, 'it holds an unpaired surrogate');
  }
  let out = '';
  let first = true;
  for (const character of name) {
    if (first && (!ALNUM.test(character) || character === '0')) out += `0${escapeCharacter(character)}`;
    else out += VERBATIM.test(character) ? character : escapeCharacter(character);
    first = false;
  }
  return out;
}

/**
 * Invert {@link escapeSegment}. Throws `INVALID_ARGUMENT` for text that {@link escapeSegment}
 * never produces (so a foreign identifier is never misread as a repomem name).
 */
export function unescapeSegment(escaped: string): string {
  const body = escaped.startsWith('0_') ? escaped.slice(1) : escaped;
  const bytes: number[] = [];
  for (let index = 0; index < body.length; ) {
    const character = body[index] as string;
    if (character === '_') {
      const hex = body.slice(index + 1, index + 3);
      if (!/^[0-9A-F]{2}$/.test(hex)) throw unmappable('identifier', escaped, 'not an escaped repomem name');
      bytes.push(Number.parseInt(hex, 16));
      index += 3;
    } else {
      bytes.push(character.charCodeAt(0));
      index += 1;
    }
  }
  let name: string;
  try {
    name = strictDecoder.decode(new Uint8Array(bytes));
  } catch {
    throw unmappable('identifier', escaped, 'its escapes are not UTF-8');
  }
  if (escapeSegment(name) !== escaped) throw unmappable('identifier', escaped, 'not in canonical escaped form');
  return name;
}

/**
 * The actorId of a repository `owner/name`: each half escaped (`vercel/next.js` ->
 * `vercel/next_2Ejs`), joined by `/`. Throws `INVALID_ARGUMENT` for a slug that is not
 * `owner/name` or whose actorId would exceed 255 characters.
 */
export function repositoryActorId(repo: string): string {
  const parts = typeof repo === 'string' ? repo.split('/') : [];
  if (parts.length !== 2 || parts.some((part) => part.length === 0)) {
    throw unmappable('repository', String(repo), 'a repository is "owner/name"');
  }
  const actorId = `${escapeSegment(parts[0] as string, 'repository owner')}/${escapeSegment(parts[1] as string, 'repository name')}`;
  return checkActorId(actorId, repo);
}

/** Invert {@link repositoryActorId}. */
export function repositoryFromActorId(actorId: string): string {
  const parts = actorId.split('/');
  if (parts.length !== 2) throw unmappable('actorId', actorId, 'not a repository actorId');
  return `${unescapeSegment(parts[0] as string)}/${unescapeSegment(parts[1] as string)}`;
}

/** Check an actorId against the service's rule; `INVALID_ARGUMENT` naming `name` otherwise. */
export function checkActorId(actorId: string, name: string): string {
  if (actorId.length > MAX_ACTOR_ID_CHARS) {
    throw unmappable('name', name, `its actorId would be ${actorId.length} characters, at most ${MAX_ACTOR_ID_CHARS}`);
  }
  if (!ACTOR_ID_PATTERN.test(actorId)) throw unmappable('name', name, `actorId ${actorId} breaks the service's rule`);
  return actorId;
}

/**
 * A sessionId for `key` under a one-letter `kind` (`d` documents, `s` state, `c` collections):
 * the kind and 48 hex digits of SHA-256 over the key. Hashing keeps any key within the 100
 * characters and the pattern a sessionId allows; the key itself travels inside every event, and
 * a reader that finds another key in a session reports it, so a collision is never merged.
 */
export function hashedSessionId(kind: string, key: string): string {
  if (!/^[a-z]$/.test(kind)) throw new RepomemError('INVALID_ARGUMENT', `session kind must be one letter, got ${kind}`);
  const sessionId = `${kind}${createHash('sha256').update(key).digest('hex').slice(0, 48)}`;
  return checkSessionId(sessionId, key);
}

/**
 * A readable, reversible sessionId for a task id or login (`task/42.a` -> `task_2F42_2Ea`).
 * Throws `INVALID_ARGUMENT` when the escaped form exceeds 100 characters.
 */
export function escapedSessionId(name: string): string {
  return checkSessionId(escapeSegment(name, 'session name'), name);
}

function checkSessionId(sessionId: string, name: string): string {
  if (sessionId.length > MAX_SESSION_ID_CHARS) {
    throw unmappable(
      'name',
      name,
      `its sessionId would be ${sessionId.length} characters, at most ${MAX_SESSION_ID_CHARS}`,
    );
  }
  if (!SESSION_ID_PATTERN.test(sessionId))
    throw unmappable('name', name, `sessionId ${sessionId} breaks the service's rule`);
  return sessionId;
}

/**
 * A namespace from segments: `/` + each segment (already escaped) + `/`, e.g.
 * `/vercel/next_2Ejs/knowledge/`. Always ends with `/`, so reading it with `namespacePath`
 * never also reads a sibling that merely starts with the same characters. Throws
 * `INVALID_ARGUMENT` over 1,024 characters.
 */
export function namespaceOf(segments: readonly string[], leadingSlash = true): string {
  const namespace = `${leadingSlash ? '/' : ''}${segments.join('/')}/`;
  if (namespace.length > MAX_NAMESPACE_CHARS) {
    throw unmappable(
      'namespace',
      namespace.slice(0, 80),
      `${namespace.length} characters, at most ${MAX_NAMESPACE_CHARS}`,
    );
  }
  if (!NAMESPACE_PATTERN.test(namespace)) throw unmappable('namespace', namespace, "breaks the service's rule");
  return namespace;
}

/**
 * Escape a `/`-separated name (a document path, a state key, a task id) segment by segment,
 * keeping `/` as the separator, so a path prefix maps to a namespace prefix.
 */
export function escapePath(path: string, what = 'path'): string {
  return path
    .split('/')
    .map((segment) => escapeSegment(segment, what))
    .join('/');
}

/** Invert {@link escapePath}. */
export function unescapePath(escaped: string): string {
  return escaped.split('/').map(unescapeSegment).join('/');
}

/**
 * Escape a listing prefix (`daily/`, `dai`, `notes/2026-`) the way {@link escapePath} escapes the
 * names it selects, so the escaped prefix selects exactly their escaped forms (a trailing `/`
 * is kept). `''` stays `''`.
 */
export function escapePrefix(prefix: string): string {
  if (prefix === '') return '';
  const trailing = prefix.endsWith('/');
  const body = trailing ? prefix.slice(0, -1) : prefix;
  return `${escapePath(body, 'prefix')}${trailing ? '/' : ''}`;
}
