// Why: the first layer of the rule classifier is positive: a rule becomes active only when it
// reads as a convention about the code (naming, types, structure, APIs and libraries to use or
// avoid, error handling, tests to write, documentation), written in English so the other layers
// can read it. Anything else is not refused, it waits for a maintainer (see rule-classifier.ts):
// a shape the list does not know is a reason to ask, never a reason to trust.
import { type NormalizedRuleText, normalizeRuleText } from './rule-text-normalize.js';

/** Why a rule does not have the shape of a code convention. */
export type ConventionProblem = 'not_english' | 'not_imperative' | 'no_code_subject' | 'code_example';

/** Verbs a code convention starts with ("Use", "Prefer", "Name"...). */
const CONVENTION_VERBS = new Set(
  (
    'use prefer avoid name keep write add document return throw validate handle mark make put import export ' +
    'declare annotate model give limit split move group order extract wrap pass test cover assert start explain ' +
    'link spell freeze brand lift map parse generate derive run compare store check include type define replace ' +
    'favor favour inject guard release clean seed bind sort format escape sanitise sanitize normalise normalize ' +
    'paginate debounce await enable configure commit update reference rebase squash pin bump read retry time ' +
    'memoize cache log reject catch rethrow encode serialize convert prefix suffix separate register remove ' +
    'list narrow model push-down push wrap call close mock stub fake isolate reuse share centralise centralize ' +
    'colocate co-locate inline hoist memoise batch stream flush dispose implement extend override annotate ' +
    'prefix rename split restrict require treat propagate surface fail lazy-load load cap bound measure profile ' +
    'print show emit accept take build reset cancel exit delete fix associate represent clamp describe ' +
    'assign initialise initialize instantiate construct clone throttle trim flatten compose deprecate simplify ' +
    'refactor collapse abort unsubscribe subscribe invalidate dedupe deduplicate indent stick preserve ' +
    'respect lazy borrow'
  ).split(' '),
);

/** Adverbs and openers allowed before the verb ("Always use", "Only throw", "Do not use"). */
const OPENERS = new Set([
  'always',
  'only',
  'never',
  'also',
  'please',
  'explicitly',
  'do',
  'dont',
  'don',
  't',
  'not',
  'generally',
  'consistently',
]);

/** Subjects of a modal convention ("Every bug fix needs a test", "Each error gets a code"). */
const MODAL =
  /^(every|each|all|no|any|public|exported|new)\b.*\b(must|should|shall|needs?|requires?|comes? with|gets?|has|have|uses?|are|is)\b|^(the|a|an)\b.*\b(must|should|shall|needs? to|requires?)\b/;

/** Words that place a rule in the code: constructs, files, tests, docs, libraries. */
const CODE_WORDS =
  /\b(functions?|methods?|class(es)?|interfaces?|types?|typed|typing|generics?|variables?|constants?|consts?|let|var|parameters?|params?|arguments?|args?|returns?|promises?|async|await\w*|errors?|exceptions?|throws?|tests?|testing|specs?|assert\w*|modules?|files?|imports?|exports?|names?|naming|identifiers?|comments?|docs?|documentation|document\w*|tsdoc|jsdoc|readme|changelog|strings?|arrays?|objects?|maps?|sets?|enums?|unions?|literals?|null|undefined|boolean|booleans|numbers?|numeric|loops?|callbacks?|hooks?|components?|props?|state|schemas?|zod|api|apis|librar(y|ies)|dependenc(y|ies)|packages?|folders?|code|codebase|syntax|semicolons?|quotes?|braces?|indentation|lines?|statements?|expressions?|operators?|regex\w*|dates?|json|logger|logging|fixtures?|mocks?|describe|snapshots?|constructors?|fields?|propert(y|ies)|getters?|setters?|private|readonly|values?|inputs?|outputs?|results?|handlers?|events?|effects?|css|react|sql|queries|query|http|endpoints?|routes?|status|keys?|ids?|classes|instances?|typescript|javascript|node|vitest|jest|pnpm|eslint|biome|prettier|go|rust|python|tsconfig|structs?|traits?|closures?|iterators?|generators?|buffers?|streams?|config|configuration|options?|defaults?|signatures?|overloads?|assertions?|casts?|checks?|coverage|branches|conditions?|ternar(y|ies)|switch|cases?|concatenation|templates?|destructuring|spread|arrow|ids?|migrations?|transactions?|indexes|index|columns?|timestamps?|locale|units?|helpers?|utilities|utils?|services?|handles?|connections?|resources?|signals?|timeouts?|retries|clock|records?|revisions?|updates?|writes?|reads?|characters?|suites?|cli|compiler|addons?|binar(y|ies)|stdout|stderr|diagnostics|messages?|assignments?|spaces?|whitespace|tabs?|concurrency|parallel\w*|pools?|mapping|items?|layout|markup|html|styles?|stylesheets?|inheritance|composition|singletons?|dictionar(y|ies)|members?|modifiers?|abstractions?|boundar(y|ies)|layers?|commits?|branch|lockfile|typecheck\w*|lint\w*|formatter|imperative|generated|public|internal|modules|namespaces?|decorators?|annotations?|jsx|tsx|ts|js|mjs|cjs|md|yaml|yml|requests?|responses?|payloads?|bod(y|ies)|mutations?|idempotent|clients?|captions?|charts?|buttons?|aria|focus|alt|images?|labels?|forms?|clauses?|guards?|nesting|pagination|page sizes?|timers?|dataclass(es)?|elements?|headings?|keyboard|threads?|cpu|workers?|animations?|dialogs?|screen readers?|scopes?)\b/;

const ENGLISH_WORDS = new Set(
  (
    'the a an to of in for with and or not use do be is are every each when instead than never always only ' +
    'before after from into over under by as on at it its this that these those no any all one new if so ' +
    'prefer avoid keep write add name make'
  ).split(' '),
);

const FOREIGN_WORDS = new Set(
  (
    'la las el los del y para con que une des les le et dans sur pour avec est die der das und nicht wenn mit ' +
    'fur zu ist im ein eine os na no do da com il lo gli della dei per di het een van bij alle voor niet ' +
    'sie w z po sie oraz przez je ne pas sans sem ohne sin senza zonder bez auf alla dello jamais toujours ' +
    'utilisez utiliser usa usar siempre nunca immer niemals verwende benutze sempre mai usare gebruik altijd ' +
    'nooit zawsze nigdy uzywaj n'
  ).split(' '),
);

/**
 * Code a word list cannot read: a call with arguments, a function, an assignment, a statement
 * separator, a pipe or a chain of commands inside a code span. Names, types and operators
 * (`unknown`, `Record<string, T>`, `?.`, `===`, `now()`) are not examples.
 */
const CODE_EXAMPLE = /[\w$)\]]\s*\([^)\s][^)]*\)|=>|[^=!<>]=[^=>]|;|&&|\|\||(^|[^|])\|([^|]|$)|\$\{?\w/;

function hasCodeExample(raw: string): boolean {
  for (const span of raw.match(/`[^`]+`/g) ?? []) {
    const code = span.slice(1, -1);
    // An operator named alone (`&&`, `||`, `=>`) is a mention, not an example.
    if (/[\p{L}\p{N}]/u.test(code) && CODE_EXAMPLE.test(code)) return true;
  }
  return false;
}

/** Leading condition or scope ("When a function grows,", "In Go,", "For public APIs,"). */
const LEADING_CLAUSE =
  /^(if|when|whenever|in|for|inside|outside|on|after|before|within|across|once|unless)\b[^,;:]{0,80}[,:]\s*/i;

/**
 * Problems keeping `normalized` (the normal form of a rule, see `normalizeRuleText`) from reading
 * as a code convention; `[]` when it does: English, an imperative convention verb first (after an
 * optional leading condition or scope and an adverb such as "always" or "do not") or a modal
 * sentence about code ("Every bug fix needs a test"), at least one word of code vocabulary or a
 * code span in `raw`, and no code example in a code span (`code_example`: what a word list cannot
 * read goes to a maintainer).
 */
export function conventionProblems(raw: string, normalized: NormalizedRuleText): ConventionProblem[] {
  const problems: ConventionProblem[] = [];
  const words = normalized.words;
  const english = words.filter((word) => ENGLISH_WORDS.has(word)).length;
  const foreign = words.filter((word) => FOREIGN_WORDS.has(word)).length;
  if (normalized.foreignLetterShare > 0.2 || foreign > english || (normalized.accentedLetters > 0 && foreign > 0)) {
    problems.push('not_english');
  }
  const trimmed = raw.trim();
  const withoutClause = trimmed.replace(LEADING_CLAUSE, '');
  const main = withoutClause === trimmed ? normalized.text : normalizeRuleText(withoutClause).text;
  const mainWords = main.split(' ');
  let index = 0;
  while (index < mainWords.length - 1 && OPENERS.has(mainWords[index] ?? '')) index += 1;
  const verb = mainWords[index] ?? '';
  const prohibition = mainWords.slice(0, index).some((word) => word === 'not' || word === 'never' || word === 't');
  const opensWithVerb = CONVENTION_VERBS.has(verb) || (prohibition && /^[a-z]{2,}$/.test(verb));
  if (!opensWithVerb && !MODAL.test(main)) problems.push('not_imperative');
  if (!CODE_WORDS.test(normalized.text) && !/`[^`]+`/.test(raw) && !/\b[\w-]+\.[a-z]{1,5}\b/.test(raw)) {
    problems.push('no_code_subject');
  }
  if (hasCodeExample(raw)) problems.push('code_example');
  return problems;
}
