// Why: a credential written into memory is committed, synced and read by every agent after it.
// One scanner, called by the batch validator every store runs before writing (and by the git
// store's checkout-mode gates), refuses such content on every write path. Its refusal names the
// file, the line and the rule, never the secret itself.
import { RepomemError } from '../errors.js';
import { SECRET_RULES, type SecretRule } from './secret-rules.js';

/** Where a credential was found: never the credential itself. */
export interface SecretFinding {
  /** Id of the rule that matched (see `SECRET_RULES`). */
  readonly ruleId: string;
  /** What the rule finds, for humans. */
  readonly description: string;
  /** 1-based line of the match's start. */
  readonly line: number;
}

const decoder = new TextDecoder('utf-8', { fatal: false });
const compiled = new Map<SecretRule, RegExp>();

function globalPattern(rule: SecretRule): RegExp {
  let pattern = compiled.get(rule);
  if (pattern === undefined) {
    pattern = new RegExp(rule.pattern.source, `${rule.pattern.flags.replace('g', '')}g`);
    compiled.set(rule, pattern);
  }
  pattern.lastIndex = 0;
  return pattern;
}

const ALL_KEYWORDS: readonly string[] = [...new Set(SECRET_RULES.flatMap((rule) => rule.keywords))];
/** Every keyword of every rule in one pattern: one pass over the text instead of one per keyword. */
const KEYWORD_PATTERN = new RegExp(
  ALL_KEYWORDS.map((keyword) => keyword.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')).join('|'),
  'g',
);

/**
 * The keywords `lower` contains: exactly `{ k | lower.includes(k) }`. Each match position is
 * checked against every keyword (keywords may overlap or share a start) and the scan resumes one
 * character later, so no occurrence hides another.
 */
function presentKeywords(lower: string): Set<string> {
  const found = new Set<string>();
  KEYWORD_PATTERN.lastIndex = 0;
  for (let match = KEYWORD_PATTERN.exec(lower); match !== null; match = KEYWORD_PATTERN.exec(lower)) {
    for (const keyword of ALL_KEYWORDS) if (lower.startsWith(keyword, match.index)) found.add(keyword);
    if (found.size === ALL_KEYWORDS.length) break;
    KEYWORD_PATTERN.lastIndex = match.index + 1;
  }
  return found;
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) line += 1;
  return line;
}

/** The first credential found in `content` (bytes or text), or `null`. */
export function findSecret(content: Uint8Array | string): SecretFinding | null {
  const text = typeof content === 'string' ? content : decoder.decode(content);
  const lower = text.toLowerCase();
  let first: SecretFinding | null = null;
  let firstIndex = Number.POSITIVE_INFINITY;
  const present = presentKeywords(lower);
  for (const rule of SECRET_RULES) {
    if (!rule.keywords.some((keyword) => present.has(keyword))) continue;
    const pattern = globalPattern(rule);
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      if (match[0].length === 0) pattern.lastIndex += 1;
      const token = match[0].replace(/[\x60'"\s;]+$/, '');
      if (rule.allowSuffixes?.some((suffix) => token.endsWith(suffix)) === true) continue;
      if (match.index < firstIndex) {
        firstIndex = match.index;
        first = { ruleId: rule.id, description: rule.description, line: 0 };
      }
      break;
    }
  }
  return first === null ? null : { ...first, line: lineOf(text, firstIndex) };
}

/**
 * Throw `SECRET_DETECTED` when `content` holds a credential in a well-known format. The message
 * and details name the file, the line and the rule; the credential itself is never included.
 */
export function refuseSecrets(path: string, content: Uint8Array | string): void {
  const finding = findSecret(content);
  if (finding === null) return;
  throw new RepomemError(
    'SECRET_DETECTED',
    `${path} line ${finding.line} holds what looks like a ${finding.description} (rule ${finding.ruleId}); nothing was written. Remove the credential (keep a reference to where it is stored instead) and try again`,
    { details: { path, line: finding.line, ruleId: finding.ruleId } },
  );
}
