// Why: at task end the agent answers two prompts (repository learnings, self-feedback) in a
// loose Markdown format: `**[Topic]:** learning` paragraphs, or a fixed "nothing new" sentence.
// This parser turns that answer into subject/scope/fact items, and says which lines it skipped
// and why, so nothing is silently lost and nothing malformed is stored.
import {
  MAX_KNOWLEDGE_FACT_CHARS,
  MAX_KNOWLEDGE_SCOPE_CHARS,
  MAX_KNOWLEDGE_SUBJECT_CHARS,
} from './knowledge-record.js';

/** The answer of the learnings prompt when nothing new was learned. */
export const NO_LEARNINGS_ANSWER = 'No new repository learnings.';
/** The answer of the self-feedback prompt when nothing was missing. */
export const NO_MISSING_CONTEXT_ANSWER = 'No missing context identified.';

/** One learning: what it is about, where it applies, and what it says. */
export interface LearningItem {
  /** Topic (the bold part), without brackets. */
  readonly subject: string;
  /** Path or pattern it applies to (from `Topic (src/legacy/)`); `null` = whole repository. */
  readonly scope: string | null;
  /** The learning text (continuation lines joined with spaces). */
  readonly fact: string;
}

/** A line the parser did not turn into a learning. */
export interface SkippedLearningLine {
  /** The line (first 200 characters). */
  readonly line: string;
  /** Why: not in the `**[Topic]:** text` format, empty text, or a part too long. */
  readonly reason: 'not_a_learning' | 'empty' | 'too_long';
}

/** Result of {@link parseLearnings}. */
export type ParsedLearnings =
  /** The "nothing new" answer. */
  | { readonly kind: 'none' }
  /** Learnings found (possibly none, with every line skipped). */
  | {
      readonly kind: 'items';
      readonly items: readonly LearningItem[];
      readonly skipped: readonly SkippedLearningLine[];
    };

const NONE_ANSWERS = [NO_LEARNINGS_ANSWER, NO_MISSING_CONTEXT_ANSWER, 'NO_LEARNINGS'].map((answer) =>
  answer.toLowerCase().replace(/[.\s]+$/, ''),
);
/** `- `, `* `, `1. ` list markers before a learning. */
const LIST_MARKER = /^\s*(?:[-*+]\s+|\d+[.)]\s+)?/;
/** `**[Topic]:** text`, `**Topic:** text`, `**Topic**: text`, `**[Topic]**: text`. */
const LEARNING_LINE = /^\*\*\s*\[?([^*\n]+?)\]?\s*(?::\s*\*\*|\*\*\s*:)\s*(.*)$/;
/** A trailing `(scope)` of a topic that looks like a path or pattern. */
const TOPIC_SCOPE = /^(.*?)\s*[([]\s*([^()[\]]+?)\s*[)\]]$/;

function isNoneAnswer(text: string): boolean {
  const normalized = text
    .trim()
    .toLowerCase()
    .replace(/[.\s]+$/, '');
  return NONE_ANSWERS.includes(normalized);
}

function looksLikeScope(text: string): boolean {
  return /[/*]/.test(text) || /\.[A-Za-z0-9]{1,5}$/.test(text) || /^scope:/i.test(text);
}

function splitTopic(topic: string): { subject: string; scope: string | null } {
  const match = TOPIC_SCOPE.exec(topic.trim());
  if (match !== null && looksLikeScope(match[2] ?? '') && (match[1] ?? '').trim() !== '') {
    return { subject: (match[1] ?? '').trim(), scope: (match[2] ?? '').replace(/^scope:\s*/i, '').trim() };
  }
  return { subject: topic.trim(), scope: null };
}

const preview = (line: string): string => line.trim().slice(0, 200);

/**
 * Parse an answer of the post-task learnings prompt or the self-feedback prompt.
 *
 * - The whole answer being "No new repository learnings." or "No missing context identified."
 *   (any case, with or without the period) is `{ kind: 'none' }`.
 * - A learning starts at a line `**[Topic]:** text` (also `**Topic:**`, `**Topic**:`, after a
 *   list marker); following non-blank lines that do not start a learning continue it.
 * - A topic ending in `(path or pattern)` carries a scope: `**[Testing (src/legacy/)]:** ...`.
 * - With `freeText` (self-feedback), paragraphs without a topic become learnings whose subject
 *   is their first sentence (up to 80 characters); otherwise such lines are skipped.
 */
export function parseLearnings(answer: string, options: { readonly freeText?: boolean } = {}): ParsedLearnings {
  if (typeof answer !== 'string') return { kind: 'items', items: [], skipped: [] };
  if (isNoneAnswer(answer)) return { kind: 'none' };
  const items: LearningItem[] = [];
  const skipped: SkippedLearningLine[] = [];
  let current: { subject: string; scope: string | null; lines: string[]; raw: string } | undefined;
  let loose: string[] = [];

  const finishLoose = (): void => {
    if (loose.length === 0) return;
    const text = loose.join(' ').replace(/\s+/g, ' ').trim();
    loose = [];
    if (text === '' || isNoneAnswer(text)) return;
    if (options.freeText !== true) {
      skipped.push({ line: preview(text), reason: 'not_a_learning' });
      return;
    }
    const sentence = (/^(.+?[.!?])(\s|$)/.exec(text)?.[1] ?? text).replace(/[.!?]+$/, '');
    const subject = sentence.length <= 80 ? sentence : `${sentence.slice(0, 79).trimEnd()}…`;
    push({ subject, scope: null, lines: [text], raw: text });
  };

  const push = (entry: { subject: string; scope: string | null; lines: string[]; raw: string }): void => {
    const fact = entry.lines.join(' ').replace(/\s+/g, ' ').trim();
    if (fact === '' || entry.subject === '') {
      skipped.push({ line: preview(entry.raw), reason: 'empty' });
    } else if (
      entry.subject.length > MAX_KNOWLEDGE_SUBJECT_CHARS ||
      fact.length > MAX_KNOWLEDGE_FACT_CHARS ||
      (entry.scope?.length ?? 0) > MAX_KNOWLEDGE_SCOPE_CHARS
    ) {
      skipped.push({ line: preview(entry.raw), reason: 'too_long' });
    } else {
      items.push({ subject: entry.subject, scope: entry.scope, fact });
    }
  };

  const finishCurrent = (): void => {
    if (current !== undefined) push(current);
    current = undefined;
  };

  for (const rawLine of answer.split(/\r?\n/)) {
    const line = rawLine.replace(LIST_MARKER, '');
    const match = LEARNING_LINE.exec(line.trim());
    if (match !== null) {
      finishCurrent();
      finishLoose();
      const { subject, scope } = splitTopic(match[1] ?? '');
      current = { subject, scope, lines: [match[2] ?? ''], raw: rawLine };
      continue;
    }
    if (rawLine.trim() === '') {
      finishCurrent();
      finishLoose();
      continue;
    }
    if (current !== undefined) current.lines.push(rawLine.trim());
    else if (/^\s*(?:[-*+]|\d+[.)])\s+/.test(rawLine)) {
      finishLoose();
      loose.push(line.trim());
    } else loose.push(rawLine.trim());
  }
  finishCurrent();
  finishLoose();
  return { kind: 'items', items, skipped };
}
