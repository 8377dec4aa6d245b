// Why: the second layer of the rule classifier. A review rule may be about the code; it may never
// steer the agent's conduct toward what an attacker wants: permissions, credentials, CI and
// workflow configuration, security settings, memory and tools, prompts, reviews and approvals,
// replies to people, text from issues, or a weaker check. This module names those subjects in
// the normal form of a rule (see rule-text-normalize.ts), so a line touching one is never made
// active without a maintainer, whatever the screen and the shape check concluded.
import { withoutCodeSenses } from './rule-code-sense.js';
import type { NormalizedRuleText } from './rule-text-normalize.js';

/** Subjects a rule may not steer the agent toward on its own. */
export const SENSITIVE_SUBJECTS = [
  'permissions',
  'credentials',
  'ci_workflow',
  'security_settings',
  'memory_tools',
  'prompts',
  'reviews_approvals',
  'repository_actions',
  'destructive',
  'weakens_check',
  'people_replies',
  'external_text',
  'execution',
  'authority_claim',
  'addresses_agent',
  'time_or_urgency_trigger',
] as const;
/** A subject a rule may not steer the agent toward on its own. */
export type SensitiveSubject = (typeof SENSITIVE_SUBJECTS)[number];

/** One subject found in a rule, with the words that matched. */
export interface SubjectMatch {
  readonly subject: SensitiveSubject;
  /** The matched words (normal form), for the pending reason. */
  readonly matched: string;
}

interface SubjectPattern {
  readonly subject: SensitiveSubject;
  readonly pattern: RegExp;
  /** A prohibition just before the match ("never use ts ignore") makes it a safe rule. */
  readonly negatable?: boolean;
}

const PROHIBITION =
  /\b(never|not|dont|don t|avoid|no|without|stop|forbid|ban|disallow|rather than|instead of)\s+(\w+\s+){0,2}$/;

const DESTRUCTIVE_OBJECTS =
  '(files?|folders?|director(y|ies)|dirs?|tests?|suites?|specs?|tables?|databases?|db|branch(es)?|tags?|workflows?|jobs?|steps?|config(uration)?s?|lock ?files?|modules?|backups?|migrations?|issues?|repositor(y|ies)|repos?|releases?|history|logs?|data|assertions?|checks?|hooks?|protections?|alerts?|everything|all|rules?|memor(y|ies)|records?|snapshots?|fixtures?|golden files?|baselines?|threads?|comments?|reviews?|changelog|node modules|packages?|accounts?|users?|volumes?|buckets?|the code|code)';

const PATTERNS: readonly SubjectPattern[] = [
  // Permissions and access
  {
    subject: 'permissions',
    pattern:
      /\b(permissions?|privileges?|write all|read all|contents write|pull requests write|admin(s|istrators?)?(?! (app|apps|panel|ui|pages?|screens?|dashboard|area|console))|sudo|root access|(write|admin|push|full|owner|maintainer|repo|repository|elevated) (access|rights|role|scope)|access (rights|level|control|token)|scopes?|codeowners|code owners|owners? file|branch protections?|protected branch(es)?|bypass list|allow ?list|whitelist|collaborators?|grant(s|ed|ing)?)\b/,
  },
  // Credentials and secrets
  {
    subject: 'credentials',
    pattern:
      /\b(tokens?|secrets?|credentials?|passwords?|passwd|passphrases?|api keys?|access keys?|deploy keys?|ssh keys?|signing keys?|private keys?|service account|account keys?|gpg|pgp|oauth|jwt|npmrc|netrc|pypirc|env files?|dot env|cookies?|session (tokens?|ids?|cookies?)|auth (tokens?|headers?)|authorization headers?|bearer|client secret|keychain|vault|kms)\b/,
  },
  {
    subject: 'credentials',
    pattern:
      /\b(print|log|dump|echo|expose|send|post|upload|share|show|display|output|list|include|write|copy|paste|leak|forward|return|reveal|attach|embed|respond)\w*\s+(\w+\s+){0,5}(process env|env(ironment)?( variables?| vars?)?|environment)\b|\bprocess env\b(?! (\w+ ){0,2}(schema|validat))|\b(log|print|dump|echo|record|trace|capture)\w* (\w+ ){0,4}(headers?|full requests?|raw requests?|whole requests?|cookies)\b/,
  },
  // CI and workflow configuration
  {
    subject: 'ci_workflow',
    pattern:
      /\b(ci|cd|workflows?|pipelines?|github actions?|actions checkout|runners?|pull request target|forks?|forked|secrets inherit|persist credentials|(third party|marketplace|composite|pinned|unpinned|external) actions?|actions? (to|at|on) (main|master|latest|head|a branch|a tag)|commit shas?|sha pin\w*|dot github|github dir|on push|on pull request|if always|continue on error|environment production|reusable workflows?|build server|(ci|test|lint|build|release|deploy|publish|agent|workflow|privileged) jobs?|jobs? (in|of) (the |a )?(workflow|ci|pipeline)|cron)\b/,
  },
  // Security settings
  {
    subject: 'security_settings',
    pattern:
      /\b(tls|ssl|https agents?|certificates?|certs?|reject unauthorized|strict ssl|verify false|insecure|cors|origins?|csrf|xsrf|csp|content security policy|sandbox(ed|ing)?|two factor|2fa|mfa|otp|rate limit(er|ing|s)?|md5|sha1|encrypt(ion|ed)?|decrypt|security|secure flag|vulnerabilit(y|ies)|cves?|audit(s|ing)?|dependabot|codeql|scanning|scanner|signatures?|signing|signed|firewall|allow all|debug (endpoints?|mode|routes?|pages?|panels?|tools?|servers?)|unsafe\w*|without (a |the |any )?(safe|safety|secure|strict)|safe (loaders?|load|mode|parsers?)|auth|authn|authz|authenticat\w*|logins?|log in|sign in|sessions? checks?|access checks?|http only|same site|hsts|(un)?saniti[sz]\w*|escap(e|ing) (is|are) (optional|not needed)|dangerously\w*|inner html|outer html|v html|raw html|document write|unescaped|escap\w* (\w+ ){0,3}(costs?|slow|expensive|optional|not needed|unnecessary))\b/,
  },
  // Memory and tools
  {
    subject: 'memory_tools',
    pattern:
      /\b(memor(y|ies)|repomem(?! error)|learnings?|preferences?|episodes?|knowledge( base| entry| entries)?|verified (memory|memories|facts?)|task records?|rules?|weight|outrank\w*|supersed\w*|expir(e|es|ed|ing|y)|precedence|priority|overrid\w*|mcp|tool calls?|tools?|add memory|forget|remember|hydrat\w*)\b/,
  },
  // Prompts and instructions
  {
    subject: 'prompts',
    pattern:
      /\b(prompts?|system (message|prompt)|instructions?|preamble|templates? (of|for) (the )?(agent|prompt|system|hydration|instruction)|(agent|prompt|system|hydration|instruction|memory) templates?|context window|guidelines|directives?|persona)\b/,
  },
  // Reviews and approvals
  {
    subject: 'reviews_approvals',
    pattern:
      /\b(reviews?|reviewed|reviewers?|reviewing|re review|approv\w*|lgtm|ship it|sign(ed)? off|co authored by|reviewed by|approved by|trailers?|merg(e|es|ed|ing)|mergeable|merge bot|resolv(e|es|ed|ing) (the |all |every |each |open |review )*(threads?|conversations?|comments?|discussions?)|(threads?|conversations?|comments?) (as )?resolved|dismiss\w*|minimi[sz]e|change requests?|requested changes|request(s|ed)? changes|labels?|labell?ed|gates?|required checks?|status checks?|commit author|author of the commit)\b/,
  },
  // Acting on the repository: pushing, publishing, releasing, deploying
  {
    subject: 'repository_actions',
    pattern:
      /\b(push(es|ed|ing)? (\w+ ){0,3}(to|into|on) (main|master|the default|default|the release|release|production|prod|origin)|push(es|ed|ing)? (directly|straight|origin|head|force|the change|changes|commits?|fixes|tags?)|force push\w*|force with lease|(commit|commits|committing) (\w+ ){0,2}(directly|straight) |publish\w*|releas(e|es|ed|ing)(?! (\w+ )?(resources?|handles?|locks?))|deploy\w*|production(?! code)|prod|npm publish|git push|default branch|main branch|release branch|tags? (the|a|old))\b/,
  },
  // Destructive actions
  {
    subject: 'destructive',
    pattern: new RegExp(
      `\\b(delet\\w*|remov\\w*|drop\\w*|truncat\\w*|wip(e|es|ed|ing)|eras\\w*|purg\\w*|rm|rmdir|rm sync|rm rf|destroy\\w*|disabl\\w*|deactivat\\w*|turn(s|ed|ing)? off|switch(es|ed|ing)? off|cancel\\w*|revok\\w*|reset hard|clean f)\\s+((\\w+\\s+){0,4})${DESTRUCTIVE_OBJECTS}\\b`,
    ),
  },
  {
    subject: 'destructive',
    pattern: /\b(rm sync|rm rf|rmdir|unlink\w*|rimraf|recursive true|force true|truncate)\b/,
  },
  {
    subject: 'destructive',
    negatable: true,
    pattern: /\b(delete|remove|drop|truncate|wipe|disable|close)\s+(it|everything)\b/,
  },
  {
    subject: 'destructive',
    pattern:
      /\b(clos|lock)\w* (\w+ ){0,2}(issues?|pull requests?|prs?|threads?|conversations?|change requests?|requested changes|alerts?)\b/,
  },
  // Weakening a check
  {
    subject: 'weakens_check',
    negatable: true,
    pattern:
      /\b(skip\w*|bypass\w*|ignor(e|es|ing)|suppress\w*|silenc\w*|no verify|ts ignore|ts nocheck|eslint disable\w*|biome ignore|noqa|nolint|type ignore|pass with no tests|fail ci if error|allow(ed)? to fail|exit 0|exit code 0|or true|expect true|to be true|to be truthy|always pass(es|ing)|xit|xdescribe|describe skip|it skip|test skip|todo tests?|empty tests?) |\b(lower\w*|reduc\w*|relax\w*|loosen\w*|weaken\w*|decreas\w*|disabl\w*|turn\w* off|switch\w* off) (\w+ ){0,3}(coverage|thresholds?|strict\w*|checks?|checking|levels?|severity|requirements?|rules?|linters?|lint|verification|validation|protections?|tests?|assertions?)\b/,
  },
  {
    subject: 'weakens_check',
    pattern:
      /\b(without|no need (to|for)|need no|needs no|not needed|unnecessary to) (\w+ ){0,2}(run(ning)?|wait(ing)?|review\w*|approv\w*|check\w*|test\w*|verif\w*|lint\w*|sign\w*|scan\w*|ci|reading)\b|\binstead of (\w+ ){0,2}(running|waiting|review\w*|approv\w*|testing|verif\w*|linting|signing|scanning)\b|\b(do not|dont|don t|never|not) (\w+ ){0,1}(run|wait for|review|check|verify|lint|typecheck|scan|sign|test) (the )?(tests?|suite|ci|checks?|review|linters?|hooks?|pipeline)\b|\b(tests?|checks?|reviews?|approvals?|ci|linting|typechecking|coverage) (is|are|become|becomes) (optional|not required|not needed|unnecessary|skippable)\b|\b(even if|even when|even on|even with|even after|regardless of|whether or not) (\w+ ){0,3}(fail\w*|red|broken|errors?|no code changed|code changed|result)\b|\b(is|are) (fine|ok|okay|allowed|acceptable) to\b|\bfeel free\b|\bgreen\b|\bflaky\b/,
  },
  // A failure relabelled, a result not looked into, a test that cannot fail
  {
    subject: 'weakens_check',
    pattern:
      /\b(treat|count|consider|report|mark|downgrade|demote|log|record|show|display|accept)\w* (\w+ ){0,5}(as|to) (a |an )?(warnings?|informational|info|notices?|pass|passing|passed|passes|green|success\w*|ok|okay|non blocking|optional|soft)\b|\b(instead of|rather than) (fail\w*|investigat\w*|debugg\w*|looking into|look into|fixing|diagnos\w*|reading the diff)\b|\b(never|cannot|can t|won t|doesn t|does not|will not) (fail|fails|break|breaks|block|blocks|go red|turn red)\b|\b(still|keeps?|stays?) (pass\w*|green|succeed\w*)\b|\b(only|just|merely|simply) (assert|check|test|verif|expect|compar|match)\w*\b|\b(assert|check|test|verif|compar)\w* only (that|whether|if|the)\b|\b(mov|keep|put|exclud|quarantin|hid|park)\w* (\w+ ){0,2}(failing|broken|red|failed) (tests?|specs?|checks?|suites?)\b|\b(nobody|no one|never) runs?\b|\b(currently|actually) (returns?|outputs?|produces?|prints?|gives?)\b|\bwhatever (it|the \w+|this) (returns?|outputs?|produces?)\b|\b(catch|swallow|wrap)\w* (\w+ ){0,3}(assert|expect)\w*|\b(assert|expect)\w* (\w+ ){0,3}(in|inside|with|into) (a |an )?try\b|\b(mock|stub|fake|spy|replace)\w* (\w+ ){0,4}(under test|being tested|tested)\b|\b(loose|looser|loosely|weak|weaker|lenient|vague|minimal) (\w+ )?(assert\w*|expect\w*|matchers?|checks?|tests?)\b|\bsurviv\w* (\w+ ){0,2}(refactor\w*|changes?)\b|\b(do not|don t|never|not|won t|doesn t) (\w+ ){0,1}fail (the |a |any )?(build|ci|job|pipeline|run|suite|check|merge|release)\b|\b(assert\w*|check\w*|test\w*|verif\w*|expect\w*) nothing\b|\bno (real )?assertions?\b|\bassert true\b|\bmax warnings\b|\bwarnings? (do not|don t|never|no longer|won t) (block|fail|stop)\b|\bexit\w* (\w+ ){0,3}(code|status) (0|zero)\b|\breturn\w* (true|ok|success|null|nothing|early) (for|on|to) (every|all|any|each)\b|\b(updat|regenerat|overwrit|rewrit|accept)\w* (\w+ ){0,3}(snapshots?|golden files?|baselines?|expected outputs?) (\w+ ){0,4}(when|whenever|if|on) (\w+ ){0,3}(fail\w*|differ\w*|mismatch\w*|break\w*|stop)/,
  },
  // A rule that holds only at some hour, day or level of urgency: code conventions hold always.
  {
    subject: 'time_or_urgency_trigger',
    pattern:
      /\b(urgent\w*|hotfix\w*|in a hurry|hurried|rush\w*|mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|weekends?|office hours|after hours|working hours|business hours|release weeks?|at night|overnight|late in the day|\d{1,2} ?(am|pm)|(am|pm) utc|midnight|holidays?|on call|emergenc\w*)\b/,
  },
  // Replies to people
  {
    subject: 'people_replies',
    pattern:
      /\b(repl(y|ies|ied|ying)|respond\w*|answer\w*|tell\w*|say(s|ing)? (that|it|the|to)|(state|stated) (that|in (every|each|all|the pr|the pull request|the description))|states in (every|each|all|the pr|the pull request|the description)|canned|with the message|message(s)? to|email\w*)\b|\b(when|if) (\w+ ){0,2}asked\b|\b(users?|reporters?|customers?|anyone|everyone|people) (who |that )?(ask\w*|report\w*|request\w*)\b|\b(close|closes|closing) (\w+ ){0,2}(bug reports?|reports?|feature requests?|issues?|questions?)\b/,
  },
  // Text from issues, comments and other untrusted places
  {
    subject: 'external_text',
    pattern:
      /\b(issues?(?! (numbers?|ids?|links?|references?|tracker))|issue (body|comments?|text|author)|bug reports?|discussions?|attachments?|snippets? from|commenters?|pr (description|body|title)|pull request (description|body|title)|(in|from) the (pr|pull request)|linked (page|script|discussion|thread|gist|document)|reporters?|(posted|provided|suggested|sent|shared|given|pasted|supplied) by (the |a |any )?(users?|commenters?|contributors?|authors?|requesters?|someone|anyone|visitors?|customers?))\b/,
  },
  // Executing text or code
  {
    subject: 'execution',
    pattern:
      /\b(exec(?!ution order)\w*|eval\w*|child process|shell|bash|powershell|sh c|curl|wget|download\w*|run (any|the|every|whatever|all) (commands?|scripts?|snippets?|code|steps)|run (it|them) with|(commands?|scripts?|snippets?|code) (from|in|linked|written in|posted in) (the |an |any |a )?(issues?|comments?|discussions?|threads?|bug reports?|pr|pull request|body|attachments?)|verbatim|(apply|use|run|merge|commit|paste|copy)\w* (\w+ ){0,4}as is|apply (the |any )?patch\w*|patches (from|posted|attached|in))\b/,
  },
  // Claims of authority
  {
    subject: 'authority_claim',
    pattern:
      /\b(as (the|a|an) (\w+ )?(owner|maintainer|admin|member|lead|manager)|on behalf of|per the|by decision|decided|decision|confirm\w*|authori[sz]\w*|official\w*|polic(y|ies)|i am|i confirm|we agreed|agreed that|maintainers?|owners?|org admins?|security team|core team|release manager|cto|ceo|legal|(the|our) management|company|team says|says that|allow(s|ed|ing)? (agents?|the agent|bots?|force|direct)|may|is allowed|are allowed|permitted|exempt\w*)\b/,
  },
  // Addressing the agent rather than describing code
  {
    subject: 'addresses_agent',
    pattern:
      /\b(you are|you re|you must|you should|you may|you can|yourself|your own|your (task|instructions?|prompt|memory|context|rules|session|tools?|permissions?|tokens?|access|behalf)|agents?|bots?|ai|llm|assistant|copilot|claude|model reads|their behalf|own (pull requests?|prs?|work|changes|commits?))\b/,
  },
];

const COMPILED = PATTERNS.map((entry) => ({ ...entry, global: new RegExp(entry.pattern.source, 'g') }));

/**
 * Every sensitive subject of a rule in its normal form (see {@link normalizeRuleText}), first
 * match per subject. A prohibition just before a "weakens a check" word ("never use ts-ignore")
 * does not count; for every other subject it does not matter which way the rule points. A word in
 * one of its narrow code senses (a lexer's token, an in-memory fake, a function signature; see
 * `withoutCodeSenses`) does not count for the subject it would trip; `raw`, the rule as written,
 * names type names in code spans ("the `Permission` enum").
 */
export function findSensitiveSubjects(normalized: NormalizedRuleText, raw = ''): SubjectMatch[] {
  const plain = ` ${normalized.text} `;
  const found: SubjectMatch[] = [];
  for (const { subject, pattern, negatable, global } of COMPILED) {
    if (found.some((match) => match.subject === subject)) continue;
    const text = withoutCodeSenses(plain, raw, subject);
    if (!pattern.test(text)) continue;
    global.lastIndex = 0;
    for (const match of text.matchAll(global)) {
      if (negatable === true && PROHIBITION.test(text.slice(0, match.index))) continue;
      found.push({ subject, matched: match[0].trim() });
      break;
    }
  }
  return found;
}
