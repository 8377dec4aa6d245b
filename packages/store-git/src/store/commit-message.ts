// Why: commit messages are the forensic record ("what did the agent know, and when?"), so they
// follow one convention that both humans (`git log`) and tools (`git log --format=%(trailers)`,
// `history()`) read: a subject line, an optional body, and attribution trailers (`Task-Id: ...`)
// in the last paragraph.
import { RepomemError } from '@repomem/core';

/** The parts of a commit message. */
export interface CommitMessage {
  /** One line, e.g. `chore(memory): add bullet to MEMORY.md` or `checkpoint: before refactor`. */
  readonly subject: string;
  /** Free text after the subject (optional). */
  readonly body?: string | undefined;
  /** Attribution trailers such as `Task-Id`, `Prompt-Version`, `Thread-Key`, written as `Key: value` lines. */
  readonly trailers?: Readonly<Record<string, string>> | undefined;
}

/** A message split back into its parts. */
export interface ParsedCommitMessage {
  readonly subject: string;
  readonly body: string;
  readonly trailers: Record<string, string>;
}

const TRAILER_KEY = /^[A-Za-z0-9][A-Za-z0-9-]*$/;
const TRAILER_LINE = /^([A-Za-z0-9][A-Za-z0-9-]*):[ \t]*(.*)$/;

function invalid(message: string): RepomemError {
  return new RepomemError('INVALID_ARGUMENT', message);
}

/** Validate trailers; throws `INVALID_ARGUMENT` for a bad key or a multi-line or empty value. */
export function assertTrailers(trailers: Readonly<Record<string, string>> | undefined): void {
  if (trailers === undefined) return;
  if (trailers === null || typeof trailers !== 'object') throw invalid('trailers must be an object of strings');
  for (const [key, value] of Object.entries(trailers)) {
    if (!TRAILER_KEY.test(key)) {
      throw invalid(`trailer key ${JSON.stringify(key)} must be letters, digits and "-" (e.g. Task-Id)`);
    }
    if (typeof value !== 'string' || value.trim().length === 0 || /[\r\n\0]/.test(value)) {
      throw invalid(`trailer ${key} must be a non-empty single-line string, got ${JSON.stringify(value)}`);
    }
  }
}

/** Render a message: subject, blank line, body, blank line, trailers; ends with a newline. */
export function composeCommitMessage(message: CommitMessage): string {
  const subject = typeof message.subject === 'string' ? message.subject.trim() : '';
  if (subject.length === 0 || /[\r\n\0]/.test(subject)) {
    throw invalid(`commit subject must be one non-empty line, got ${JSON.stringify(message.subject)}`);
  }
  const body = message.body?.replace(/\r\n?/g, '\n').trim() ?? '';
  if (body.includes('\0')) throw invalid('commit body must not contain NUL bytes');
  assertTrailers(message.trailers);
  const paragraphs = [subject];
  if (body.length > 0) paragraphs.push(body);
  const trailerLines = Object.entries(message.trailers ?? {}).map(([key, value]) => `${key}: ${value.trim()}`);
  if (trailerLines.length > 0) paragraphs.push(trailerLines.join('\n'));
  return `${paragraphs.join('\n\n')}\n`;
}

/** Turn the store contract's one-string `message` into parts (first line subject, rest body). */
export function splitMessage(message: string): { subject: string; body: string } {
  const normalized = message.replace(/\r\n?/g, '\n').trim();
  const newline = normalized.indexOf('\n');
  if (newline < 0) return { subject: normalized, body: '' };
  return { subject: normalized.slice(0, newline).trim(), body: normalized.slice(newline + 1).trim() };
}

/**
 * Split a stored message into subject (first paragraph, lines joined by a space, like git's
 * `%s`), body and trailers (the last paragraph when every line is `Key: value`; a repeated key
 * keeps its last value).
 */
export function parseCommitMessage(message: string): ParsedCommitMessage {
  const paragraphs = message
    .replace(/\r\n?/g, '\n')
    .trim()
    .split(/\n[ \t]*\n+/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph.length > 0);
  const subject = (paragraphs.shift() ?? '').split('\n').join(' ');
  const trailers: Record<string, string> = {};
  const last = paragraphs.at(-1);
  if (last !== undefined) {
    const lines = last.split('\n');
    const matches = lines.map((line) => TRAILER_LINE.exec(line));
    if (matches.every((match) => match !== null)) {
      for (const match of matches) if (match !== null) trailers[match[1] as string] = (match[2] ?? '').trim();
      paragraphs.pop();
    }
  }
  return { subject, body: paragraphs.join('\n\n'), trailers };
}
