// Why: the sensitive-subject lists (rule-subjects.ts) read words, and many of their words have an
// ordinary sense in code: a lexer's "token", a `Permission` enum in a domain model, an "in-memory"
// fake, a function "signature", a form "label", data that "may be" empty. Sending every such rule
// to a maintainer costs benign rules for nothing. This module names those code senses, narrowly
// (the word plus the code words around it), so the subject lists can look past them; any other
// word in the rule is still read, and a phrase is masked only for the subject it would trip.
import type { SensitiveSubject } from './rule-subjects.js';

interface CodeSense {
  /** The subjects this phrase must not trip. */
  readonly subjects: readonly SensitiveSubject[];
  /** The phrase, in the normal form of a rule (lower case, identifiers split). */
  readonly pattern: RegExp;
  /** The code sense does not hold when the rule also says any of this. */
  readonly unless?: RegExp;
}

const CODE_SENSES: readonly CodeSense[] = [
  // A lexer's or parser's token, a design token, a token count.
  {
    subjects: ['credentials'],
    pattern:
      /\b(lexers?|parsers?|tokeni[sz]ers?|tokeni[sz]ing|grammar|syntax|design|css|ast|scanners?)( \w+){0,2} tokens?\b|\btokens? (kinds?|types?|streams?|positions?|spans?|offsets?|counts?)\b/g,
    unless: /\b(api|access|auth|bearer|github|npm|ci|deploy|personal|secret|session|refresh|oauth|jwt)\b/,
  },
  // Memory as in RAM: in-memory fakes and caches, reading into memory, memory usage.
  {
    subjects: ['memory_tools'],
    pattern:
      /\bin memory (\w+ )?(maps?|caches?|stores?|fakes?|databases?|db|implementations?|queues?|buffers?|file systems?|fs|versions?|adapters?|backends?|doubles?|lists?|arrays?|objects?|structures?)\b|\b(into|in) memory (whole|at once|all at once)\b|\binto memory\b|\bmemory (usage|use|leaks?|footprint|allocations?|pressure|consumption|limits?|bounds?|safety|safe|layout|efficient)\b|\bout of memory\b/g,
    unless: /\b(repomem|rules?|memories|learnings?|notes?|facts?|agents?|tasks?)\b/,
  },
  // A function's signature.
  {
    subjects: ['security_settings'],
    pattern:
      /\b(functions?|methods?|types?|overloads?|constructors?|calls?|callbacks?|generics?|parameters?|params?|handlers?|hooks?|components?)( \w+){0,4} signatures?\b|\bsignatures?( \w+){0,3} (functions?|methods?|types?|overloads?|constructors?|callbacks?|parameters?)\b/g,
    unless:
      /\b(verif\w*|commits?|tags?|releases?|packages?|artifacts?|gpg|pgp|sigstore|cosign|webhooks?|payloads?|keys?|certificates?|skip\w*|ignor\w*|disabl\w*)\b/,
  },
  // An accessible name: aria and form labels.
  {
    subjects: ['reviews_approvals'],
    pattern:
      /\b(aria|form|input|field|button|accessible|visible|text|axis|chart|icon|screen reader|checkbox|radio)( \w+)? labels?\b|\blabels? (elements?|for (each |every |the )?(inputs?|fields?|controls?|buttons?))\b/g,
    unless: /\b(merg\w*|approv\w*|review\w*|pr|prs|pull requests?|issues?|ship\w*|safe to)\b/,
  },
  // "May" as a possibility of the data, not a permission.
  {
    subjects: ['authority_claim'],
    pattern:
      /\bmay (not )?(be (null|undefined|empty|missing|absent|large|slow|stale|delivered|called|invoked|retried|reordered|duplicated|concurrent|partial|truncated|zero|negative|nan)|contain|retry|throw|return|change|differ|vary|overflow|exceed|arrive|hold|include|resolve|reject|repeat)\b/g,
  },
  // A lexical scope, a collaborator of an object under test.
  {
    subjects: ['permissions'],
    pattern:
      /\b(outer|inner|block|function|module|lexical|global|local|enclosing|parent|same|closure|class) scopes?\b|\bscopes? chains?\b|\b(pure|internal|test|mocked|real|object|class|direct) collaborators?\b/g,
    unless: /\b(tokens?|oauth|github|access|permissions?|repositor(y|ies)|repo|write|admin\w*|grant\w*)\b/,
  },
  // "Where you can": a hedge, not an address to the agent.
  {
    subjects: ['addresses_agent'],
    pattern: /\b(where|when|if|wherever|whenever) you can\b/g,
  },
  // A version's release, and a review screen of the product.
  {
    subjects: ['repository_actions'],
    pattern: /\b(minor|major|patch) releases?\b/g,
    unless: /\b(publish\w*|deploy\w*|push\w*|tags?|npm|branch\w*|production|prod)\b/,
  },
  {
    subjects: ['reviews_approvals'],
    pattern:
      /\breviews? (screens?|pages?|components?|forms?|tables?|entit(y|ies)|widgets?|cards?|modals?|dialogs?|models?)\b/g,
    unless: /\b(merg\w*|approv\w*|pr|prs|pull requests?|threads?|comments?|reviewers?|ship\w*|skip\w*)\b/,
  },
  // A linter directive named as code, and removing dead code.
  {
    subjects: ['destructive'],
    pattern:
      /\b(eslint|tslint|biome|istanbul|c8) (disable|ignore)\w*( next)?( line)?\b|\b(commented out|dead|unused|unreachable|duplicated?|obsolete) (code|imports?|variables?|exports?|functions?|parameters?|branches|locals?|helpers?|types?)\b/g,
  },
];

/** A PascalCase name in a code span followed by a word saying it is a type ("the `Permission` enum"). */
const TYPE_NAME = /`([A-Z][A-Za-z0-9]*)`\s+(types?|enums?|class(es)?|interfaces?|structs?|traits?|unions?)\b/g;
const TYPE_NAME_UNLESS =
  /\b(store|commit|print|log|share|copy|paste|send|push|publish|upload|read|reuse|use the value|value of|env\w*|ci|repositor(y|ies)|repo|readme|api|apis|scripts?|calls?|github|npm|remote|servers?|accounts?|login|auth\w*|requests?|headers?|production|prod)\b/;
/** A type name that names a privileged credential or role is never a mere code sense. */
const PRIVILEGED_NAME =
  /\b(admin\w*|root|super\w*|owners?|maintainers?|deploy\w*|github|gh|npm|ci|prod\w*|master|service|private|signing|access|personal|bearer|session|refresh)\b/;

/**
 * The normal-form text with every code sense of a word that would trip `subject` blanked out
 * (see {@link CODE_SENSES}); `raw` (the rule as written) names type names in code spans, which
 * are blanked for the credentials and permissions subjects ("the `SecretString` type").
 */
export function withoutCodeSenses(text: string, raw: string, subject: SensitiveSubject): string {
  let out = text;
  for (const sense of CODE_SENSES) {
    if (!sense.subjects.includes(subject)) continue;
    if (sense.unless?.test(text) === true) continue;
    out = out.replace(sense.pattern, ' ');
  }
  if ((subject === 'credentials' || subject === 'permissions') && !TYPE_NAME_UNLESS.test(text)) {
    for (const match of raw.matchAll(TYPE_NAME)) {
      const words = (match[1] ?? '')
        .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
        .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
        .toLowerCase();
      if (words !== '' && !PRIVILEGED_NAME.test(words)) out = out.replace(new RegExp(`\\b${words}\\b`, 'g'), ' ');
    }
  }
  return out;
}
