// Why: review comments are attacker-controlled, and whatever the extraction model returns goes
// into future agents' prompts. Every candidate rule is screened here, without a model, for text
// that reads as an instruction to the agent rather than a coding rule. The screen is deliberately
// strict: rejecting a real rule costs one lost suggestion, accepting a hostile one costs a
// hijacked agent. The corpus test (test/tasks/rules) measures both error rates.
import { findSecret } from '../../store/secret-scan.js';
import { MAX_RULE_CHARS } from './rule-record.js';
import { findSuspiciousCharacter } from './suspicious-characters.js';

/** Why a candidate rule line was rejected. */
export const RULE_REJECTION_REASONS = [
  'empty',
  'too_short',
  'too_long',
  'invisible_character',
  'lookalike_character',
  'code_fence',
  'markup',
  'role_text',
  'override',
  'url',
  'shell_command',
  'secret',
  'encoded_payload',
  'tool_directive',
  'agent_directive',
  'source_mismatch',
  'reviewer_without_write_access',
  'contradicts_stronger_rule',
  'rejected_by_maintainer',
  'invalid_scope',
  'over_limit',
  'not_a_rule_line',
] as const;
/** Why a candidate rule line was rejected. */
export type RuleRejectionReason = (typeof RULE_REJECTION_REASONS)[number];

/** One reason a line was rejected, with a human-readable explanation. */
export interface RuleRejection {
  /** Stable reason code. */
  readonly reason: RuleRejectionReason;
  /** What was found, for humans (never a secret's value). */
  readonly message: string;
}

/**
 * Screen reasons that read meaning into wording (a directive to the agent, a tool or memory
 * call): a rule refused only for these waits for a maintainer instead (`screen_unsure`), so a real
 * rule that happens to use the words is never refused outright. Every other reason refuses.
 */
export const UNSURE_SCREEN_REASONS: readonly RuleRejectionReason[] = ['agent_directive', 'tool_directive'];

/** Outcome of {@link screenRuleText}. */
export type RuleScreenResult =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly rejections: readonly RuleRejection[] };

/** Options of {@link screenRuleText}. */
export interface RuleScreenOptions {
  /** Longest accepted rule, in characters (default {@link MAX_RULE_CHARS}). */
  readonly maxChars?: number;
}

interface PatternCheck {
  readonly reason: RuleRejectionReason;
  readonly message: string;
  readonly matches: RegExp | ((text: string) => boolean);
}

/** A prohibition just before a match: "never push to main" is a rule, "push to main" is not. */
const NEGATED_BEFORE =
  /\b(never|not|don'?t|avoid|no|without|cannot|can'?t|shouldn'?t|mustn'?t)\s+((?!forget|hesitate|fail|neglect|refuse|mind)\w+\s+)?$/i;

/** Checks whose match may be a prohibition (see {@link NEGATED_BEFORE}). */
const UNLESS_NEGATED: readonly PatternCheck[] = [
  {
    reason: 'agent_directive',
    message: 'tells the agent to switch off a safeguard (tests, CI, review, signing, protection)',
    matches:
      /\b(disable|skip|bypass|turn off|switch off|circumvent|remove|delete)\s+(all\s+|the\s+|any\s+|every\s+)?(security|safety|branch protection|code ?owners|review(er)?s?|ci|checks?|verification|signing|signatures?|guard ?rails?|filters?|sandbox|content polic(y|ies)|secret scanning|audit)\b/i,
  },
  {
    reason: 'agent_directive',
    message: 'tells the agent to approve, merge or push on its own',
    matches:
      /\b(approve|merge|lgtm)\s+(this|the|all|every|any|my|these|those)\s+(pr|prs|pull requests?|changes)\b|\b(push|commit)\s+(\w+\s+){0,2}(directly\s+)?to\s+(main|master|production|prod|the default branch)\b|\bforce[- ]push|\bauto[- ]?(approve|merge)/i,
  },
  {
    reason: 'agent_directive',
    message: 'tells the agent to reveal or send secrets or its instructions',
    matches:
      /\b(reveal|print|output|show|dump|echo|display|leak|disclose|repeat|list|tell me|send|post|upload|exfiltrate|transmit|forward|email|e-mail|copy|paste|share|include)\s+(me\s+|us\s+)?(\w+\s+){0,3}(your|the|all|any|its|every)\s+(\w+\s+){0,2}(system prompt|prompt|instructions|secrets?|tokens?|credentials?|api keys?|keys|passwords?|env(ironment)?( variables| vars)?|cookies|private keys?|ssh keys?)\b/i,
  },
];

/**
 * Token shapes, documentation examples included (the store's scanner lets `...EXAMPLE` keys
 * through; a rule has no reason to hold one either way).
 */
const TOKEN_SHAPES =
  /\b(AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b|\bxox[abposr]-[A-Za-z0-9-]{8,}|\bgh[pousr]_[A-Za-z0-9]{16,}|\bgithub_pat_\w{16,}|\b[sr]k_(live|test)_\w{8,}|\bglpat-[\w-]{8,}|\bAIza[\w-]{20,}|\bnpm_[A-Za-z0-9]{20,}|-----BEGIN [A-Z ]*PRIVATE KEY|\beyJ[\w-]{8,}\.[\w-]{4,}/;

const PROTECTED =
  /\b(hash(ed|es|ing)?|encrypt(ed|s|ing)?|redact(ed|s|ing)?|mask(ed|s|ing)?|rotate[ds]?|rotating|revoke[ds]?|scrub(bed|s)?)\b/i;
const SENSITIVE =
  /(\.env\b|\.npmrc|\.netrc|\.pypirc|\bid_rsa|\b(private|deploy|ssh|signing|api|access|secret)[ _-]?keys?\b|\baccess tokens?\b|\b[A-Z][A-Z0-9]*_(TOKEN|SECRET|KEY|PASSWORD)\b|\bsecrets?\b|\bcredentials?\b|\bpasswords?\b|\bauthorization header|\bcookies?\b|\bsession (tokens?|ids?)\b|\b(database|db|production) (dump|backup|data)\b|\b(customer|personal|user) data\b|\bPII\b)/i;
const EXPOSING =
  /\b(include|paste|log|print|write|commit|attach|post|add|send|upload|share|echo|dump|expose|copy|embed|put|store|hardcode|hard-code|publish)\b/i;
const WEAKENING =
  /\b(lower|reduce|weaken|relax|loosen|decrease|mark|dismiss|close|suppress|silence|ignore|remove|delete|drop|allow|permit|exempt|downgrade|auto-?close)\b[^.]*\b(security|vulnerabilit(y|ies)|alerts?|advisor(y|ies)|cve|coverage threshold|coverage|codeowners|branch protection|required (reviews?|checks?)|signing|signed commits|audit|dependabot|codeql|scanning|false positives?)\b|\b(add|put|make)\s+\S+\s+(to|in|into|as)\s+(the\s+)?(codeowners|owners|maintainers|admins)\b|\bcodeowners\b[^.]*\b(every|all|any)\b/i;
const SUPPLY_CHAIN =
  /\b(replace|change|switch|point|set|redirect|swap|move|update|add)\b[^.]*\b(registr(y|ies)|mirror|index-url|extra-index-url|package source|lockfile source|publish(ing)? (from|to)|release workflow|publish workflow|workflow permissions|install script|postinstall|preinstall)\b|\bpublish(es|ing)? from (any|every|all|other) (branch|fork)/i;

/** Checks whose verb a prohibition just before it turns off ("never commit secrets"). */
const SENTENCE_CHECKS: readonly {
  readonly reason: RuleRejectionReason;
  readonly message: string;
  readonly applies: (text: string) => boolean;
  readonly verb: RegExp;
}[] = [
  {
    reason: 'secret',
    message: 'tells the agent to expose a secret or sensitive data',
    applies: (text) => SENSITIVE.test(text) && !PROTECTED.test(text),
    verb: EXPOSING,
  },
  {
    reason: 'agent_directive',
    message: 'weakens a security or quality safeguard',
    applies: () => true,
    verb: WEAKENING,
  },
  {
    reason: 'agent_directive',
    message: 'changes where code or packages come from or go to (supply chain)',
    applies: () => true,
    verb: SUPPLY_CHAIN,
  },
];

const BASE64_RUN = /[A-Za-z0-9+/]{16,}={0,2}/g;

/** Share of camel-case pieces of `run` that read as words (`create`, `Document`...). */
function wordShare(run: string): number {
  const pieces = run.split(/(?=[A-Z][a-z])/).filter((piece) => piece !== '');
  const words = pieces.filter(
    (piece) => /^([A-Z][a-z]{1,}|[a-z]{2,}|[A-Z]{2,}[a-z]*)\d{0,2}$/.test(piece) && /[aeiouAEIOU]/.test(piece),
  );
  return pieces.length === 0 ? 0 : words.length / pieces.length;
}

/** True when `text` holds a base64-looking blob (not a path, an identifier or a word). */
function hasBase64Blob(text: string): boolean {
  for (const match of text.matchAll(BASE64_RUN)) {
    const run = match[0];
    if (run.endsWith('=') || (run.includes('+') && run.length >= 20)) return true;
    for (const segment of run.split('/')) {
      if (segment.length < 16) continue;
      const digits = segment.replace(/[^0-9]/g, '').length;
      const upper = segment.replace(/[^A-Z]/g, '').length;
      const lower = segment.replace(/[^a-z]/g, '').length;
      if (digits >= 2 && upper >= 3 && lower >= 3) return true;
      if (upper >= 3 && lower >= 3 && wordShare(segment) < 0.5) return true;
    }
  }
  return false;
}

const CHECKS: readonly PatternCheck[] = [
  {
    reason: 'code_fence',
    message: 'contains a code fence (text smuggled inside a fenced block)',
    matches: /```|~~~|``/,
  },
  {
    reason: 'markup',
    message: 'contains markup that hides or frames text (HTML comment, prompt or script tag)',
    matches:
      /<!--|-->|<\/?\s*(system|instructions?|prompt|assistant|user|developer|human|script|iframe|img|svg|style|object|embed|tool[_-]?\w*|function[_-]?\w*|invoke|parameter|im_start|im_end|s|inst|sys|context|memory|rules?|admin)\b[^>]*>|<\|[^|]*\|>|\[\/?(INST|SYS)\]|<<\/?SYS>>|\]\s*\(\s*[a-z]+:/i,
  },
  {
    reason: 'role_text',
    message: 'reads as system-prompt or role text',
    matches:
      /\b(system|developer)\s*(prompt|message|instructions?|override)\b|^\s*(system|assistant|user|developer|human|ai|bot)\s*:|\byou\s+are\s+(now\s+)?(an?|the|my|no longer|free|chatgpt|claude|gpt|dan|unrestricted)\b|\b(act|behave|respond|answer)\s+as\s+(an?|the|if)\b|\bpretend\s+(to|that|you)\b|\brole[- ]?play|\bjail\s*break|\b(developer|god|admin|debug|sudo|unrestricted|jailbreak|dan)\s+mode\b|\bdo anything now\b|\bas an? (ai|llm|language model|assistant|agent)\b|\b(dear|hey|hello|attention|note to|message to|instructions? (for|to))\s+(the\s+|all\s+|any\s+)?(ai|agents?|assistants?|bots?|llms?|models?|claude|chatgpt|gpt|copilot|codex)\b|\b(the\s+)?(ai|assistant|llm|language model|chatbot|claude|chatgpt|gpt-?\d*|copilot|codex)\s+(must|should|shall|will|is required to|needs to|has to)\b|\bnew persona\b|\byour (true|real|new|actual) (purpose|goal|task|instructions?|role|identity|job)\b|\bsystem\s*:/i,
  },
  {
    reason: 'override',
    message: "tries to override the agent's instructions",
    matches:
      /\b(ignore|disregard|forget|override|overrule|bypass|discard)\s+(all\s+|any\s+|the\s+|your\s+|my\s+|these\s+|those\s+|every\s+)*(previous|prior|above|earlier|preceding|original|initial|existing|other|system|safety|old)?\s*(instructions?|rules|prompts?|guidelines|directions|directives|constraints|guardrails|policies|programming|training|restrictions)\b|\b(do not|don'?t|never|stop)\s+(follow|obey|apply|respect)\s+(the\s+|your\s+|any\s+|those\s+|these\s+)?(previous|prior|above|earlier|system|original|other|existing)\s+(instructions?|rules|prompts?|guidelines)\b|\bfrom now on\b|\bnew instructions?\b|\b(these|this|the following)\s+(rules?|instructions?)\s+(override|replace|supersede|take precedence)|\b(takes?|has|have)\s+(precedence|priority)\s+over\b|\b(highest|top|maximum|absolute)\s+priority\b|\bregardless of (any|all|the|previous|prior|your|other)\s+(instructions?|rules|guidelines)\b|\binstead of (following|obeying)\b|\b(updated|revised|real|actual|true|secret|hidden) instructions?\b|\b(the\s+)?(real|actual|true|hidden|secret)\s+(rules?|task|goal|purpose)\b|\bend of (the )?(review|comments?|input|prompt|instructions?)\b|\b(begin|start) (of )?(new|real|actual) (instructions?|prompt|task)\b/i,
  },
  {
    reason: 'url',
    message: 'contains a URL, address or e-mail',
    matches:
      /\b[a-z][a-z0-9+.-]*:\/\/|\bwww\.|\b(mailto|javascript|data|file|vbscript):|\b(?!127\.0\.0\.1\b|0\.0\.0\.0\b)\d{1,3}(\.\d{1,3}){3}\b|\b[\w.+-]+@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}\b|\b[a-z0-9-]+\.(io|dev|app|sh|ai|me|co|com|net|org)\/|\bngrok\b|\bpastebin\b|\bwebhook\.site\b|\brequestbin\b|\bburpcollaborator\b|\binteract\.sh\b/i,
  },
  {
    reason: 'url',
    message: 'contains a domain name',
    matches: /\b[a-z0-9-]+(\.[a-z0-9-]+)*\.(com|net|org|ru|cn|xyz|tk|ly|gg|biz|ngrok|onion|online|pw|su|io)\b(?![.(])/,
  },
  {
    reason: 'shell_command',
    message: 'contains a shell command',
    matches:
      /\|\s*(sudo\s+)?(ba|z|da|k|c|tc|fi)?sh\b|\|\s*(python3?|node|perl|ruby|php|iex|pwsh|powershell)\b|\$\(|\$\{\{|\b(curl|wget|nc|ncat|netcat|socat|telnet|sudo|chmod|chown|chattr|mkfifo|nohup|crontab|systemctl|iptables|scp|sshpass|powershell|pwsh|certutil|bitsadmin|mshta|rundll32|regsvr32|invoke-expression|invoke-webrequest|iex|printenv|xxd|msfvenom|nmap)\b|\bsu -|\brm\s+-[a-z]*[rf]|\bfind\s+[~/.]\S*\s.*-(delete|exec)\b|\bshred\b|\bdd\s+if=|\bmkfs\b|:\(\)\s*\{|\/dev\/(tcp|udp)\/|\/etc\/(passwd|shadow|sudoers|hosts)|~\/\.(ssh|aws|npmrc|netrc|bashrc|zshrc|profile|gnupg|docker|kube)|\.ssh\/|\bid_rsa|\beval\s+["'$`]|\bexec\s+\d*[<>]|\b(bash|sh|zsh|python3?|node|perl|ruby)\s+-[ce]\b|&&\s*(rm|curl|wget|sh|bash|cd|git|npm|pnpm|yarn|echo|cat|export|env|chmod|sudo)\b|;\s*(rm|curl|wget|sh|bash|cat|echo|env|chmod|sudo)\b|\b(export|set)\s+[A-Z_][A-Z0-9_]*=|\bgit\s+(push\s+(-f|--force)|config\s+--global|remote\s+(add|set-url)|reset\s+--hard|clean\s+-[a-z]*f|filter-branch|update-ref\s+-d)|\bnpm\s+(publish|adduser|login|token)|\b(npx|pnpm dlx|bunx)\s+\S+@|>\s*\/|>>\s*[~/.$]|\bsh\s+-i\b/i,
  },
  {
    reason: 'shell_command',
    message: 'refers to an environment variable the way a shell does',
    matches: /\$\{?[A-Z_][A-Z0-9_]{2,}\}?/,
  },
  {
    reason: 'role_text',
    message: 'addresses an AI, an agent or a model, or refers to this review itself',
    matches:
      /(?<!user[- ])\b(agents?|ai|llms?|assistants?|chatbots?|claude|chatgpt|gpt-?\d*|copilot|codex|gemini)\b(?![- ]?(generated|assisted))|\b(models?|bots?|tools?|readers?)\s+(that|which|who)\s+(read|process|see|parse|handle)|\b(reading|processing|parsing) this\b|\bthis (review|comment|message|text|note|pr comment)\b|\b(the )?text of this\b|\b(CLAUDE|AGENTS|GEMINI|COPILOT)\.md\b|copilot-instructions|\.cursor\/?rules|\.windsurfrules|\byou (were|have been|are being|'ve been) (told|asked|instructed|given)|\bwhatever you\b|\bin the first person as\b|\bspeak (as|for)\b|\byou have (permission|authori[sz]ation|clearance)\b/i,
  },
  {
    reason: 'role_text',
    message: 'names a person (rules are about code, not about whom to trust)',
    matches: /(^|[\s(,;:])@[A-Za-z0-9][A-Za-z0-9-]{0,38}\b(?!\/)/,
  },
  {
    reason: 'override',
    message: "tries to override the agent's instructions (in another language)",
    matches:
      /\b(ignor(ez|e|a|ar|ieren?|iere)|oubliez|olvida|vergiss|dimentica)\b.{0,40}\b(instructions?|instrucciones|istruzioni|anweisungen|instruções|consignes|r[eè]gles|reglas|regeln|regole)\b|\b(instructions? précédentes|instrucciones anteriores|istruzioni precedenti|vorherigen anweisungen|instruções anteriores)\b|(игнорир|забудь|предыдущи[ехй]\s+инструкц|инструкци)|(忽略|无视|忘记|以前的指示|之前的指令|前の指示|指示を無視)/iu,
  },
  {
    reason: 'override',
    message: 'refers to or voids earlier instructions',
    matches:
      /\b(earlier|previous|prior|above|preceding|original|initial|existing|other|old)\s+(instructions?|guidance|directions|directives|prompts?|commands|orders)\b|\bno longer (applies|apply|valid|holds|relevant|in effect)\b|\b(is|are|now|as) (obsolete|void|null and void|revoked|cancell?ed|rescinded)\b|\bpay no attention\b|\bstop (reading|following|obeying|applying)\b|\bconfiguration from here on\b|\bfrom here on\b/i,
  },
  {
    reason: 'tool_directive',
    message: 'tells the agent to call a tool or write to its memory',
    matches:
      /\b(call|invoke|execute|trigger)\s+(the\s+|a\s+|your\s+)?([\w-]+\s+)?(tools?|function calls?|mcp)\b|\b(tool_call|tool_use|function_call|tool_calls|functions\.\w+|mcp__\w+)\b|\b(write|save|store|add|persist|record|insert|put|inject|append|commit)\s+(this|that|it|the following|these|a note|a memory|a rule|the rules?|everything|all of this)?\s*(to|in|into|as)\s+(your\s+|the\s+|its\s+|long[- ]term\s+|persistent\s+|agent\s+)*(memory|memories|knowledge( base)?|system prompt|prompt|instructions|rules? (store|database|memory))\b|\b(update|edit|modify|rewrite|replace|clear|wipe|erase|delete|reset)\s+(your|the agent'?s?|its|all)\s+(memory|memories|instructions|prompt|rules|knowledge|context)\b|\bremember (this|these|the following) (forever|permanently|always)\b|\b(add|create|register|save)\s+(a\s+|this\s+as\s+a\s+|the\s+following\s+as\s+a\s+)?(new\s+)?(permanent\s+)?(rule|memory)\s*(:|that says|saying)|\brepomem\s+(rules|memories|update|state|hooks|webhook)\b|\bsupersede (all|every|the other|existing) rules?\b|\bRULE\s*:/i,
  },
  {
    reason: 'agent_directive',
    message: 'tells the agent to grant access, trust someone, plant code or send data away',
    matches:
      /\b(grant|give|add)\s+([@\w-]+\s+){0,3}(admin|owner|write|maintainer|push|root)\s+(access|rights|permissions?|role|privileges?)\b|\badd\s+@?[\w-]+\s+(as|to)\s+(an?\s+)?(collaborator|maintainer|owner|admin)\b|\b(whitelist|allowlist|trust)\s+(all\s+)?(comments?|reviews?|instructions?|rules?|input)\s+from\b|\b(treat|consider|accept)\s+(all\s+)?(comments?|reviews?|instructions?|requests?|messages?)\s+from\s+@?[\w-]+\s+as\b|\b(obey|follow|comply with)\s+(all\s+)?(instructions?|requests?|commands?|orders?)\s+(from|in|of)\b|\b(do whatever|do anything|always comply|unconditionally)\b|\b(add|insert|include|introduce|plant|hide)\s+(a\s+|an\s+)?(backdoor|back door|hidden (user|account|admin)|reverse shell|keylogger|miner|cryptominer|malware)\b|\b(send|post|upload|report|forward|copy|sync|push|exfiltrate)\s+([\w-]+\s+){0,8}(to|at)\s+(my|this|our|an?)\s+(server|endpoint|webhook|address|url|email|inbox|bucket|host|machine)\b|\b(to|at|on)\s+(my|an external|a remote|the attacker'?s?|a personal)\s+(server|endpoint|webhook|host|machine|bucket|inbox|account)\b/i,
  },
  {
    reason: 'encoded_payload',
    message: 'contains an encoded payload (base64, hex or escaped bytes)',
    matches: (text) =>
      hasBase64Blob(text) ||
      /\b(0x)?(?=[0-9a-fA-F]*[0-9])(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{20,}\b|\b(0x)?[0-9a-fA-F]{4}(\s+[0-9a-fA-F]{2,4}){3,}\b|(\\x[0-9a-fA-F]{2}){3,}|(%[0-9a-fA-F]{2}){3,}|(\\u[0-9a-fA-F]{4}){2,}|(&#x?[0-9a-fA-F]+;){2,}|\b(base64|base32|hex)[- ]?(decode|decoded)\b|\b(rot ?13|rot-13|rot47|caesar cipher|xor(ed)? with)\b|\bdecode (this|the following|it|and (run|execute|follow))\b|\b(atob|fromcharcode|b64decode)\b/i.test(
        text,
      ),
  },
];

/** Obfuscation-free spelling: letters only, lower-case, common digit and symbol substitutions undone. */
function squashed(text: string): string {
  const leet: Readonly<Record<string, string>> = {
    '0': 'o',
    '1': 'i',
    '3': 'e',
    '4': 'a',
    '5': 's',
    '7': 't',
    '@': 'a',
    $: 's',
    '!': 'i',
  };
  let out = '';
  for (const char of text.normalize('NFKC').toLowerCase()) {
    const mapped = leet[char] ?? char;
    if (/\p{L}/u.test(mapped)) out += mapped;
  }
  return out;
}

/** Override phrases spelled out with separators or digits ("i g n o r e  p r e v i o u s"). */
const SQUASHED_OVERRIDES = [
  'ignoreprevious',
  'ignoreallprevious',
  'ignoreallinstructions',
  'ignoreyourinstructions',
  'ignoretheabove',
  'ignoreallrules',
  'disregardprevious',
  'disregardall',
  'forgetprevious',
  'forgetallprevious',
  'forgetyourinstructions',
  'systemprompt',
  'youarenow',
  'newinstructions',
  'jailbreak',
  'developermode',
];

function checkMatches(check: PatternCheck, text: string): boolean {
  return typeof check.matches === 'function' ? check.matches(text) : check.matches.test(text);
}

/** True when some match of `check` in `text` is not directly preceded by a prohibition. */
function unnegatedMatch(check: PatternCheck, text: string): boolean {
  if (typeof check.matches === 'function') return check.matches(text);
  const pattern = new RegExp(check.matches.source, `${check.matches.flags.replace('g', '')}g`);
  for (const match of text.matchAll(pattern)) {
    if (!NEGATED_BEFORE.test(text.slice(0, match.index))) return true;
  }
  return false;
}

/**
 * Screen one candidate rule text. Returns the trimmed text, or every reason it reads as an
 * instruction to the agent rather than a coding rule (see {@link RULE_REJECTION_REASONS}).
 * The source suffix and scope are parsed off before screening (see `parseRuleOutput`).
 */
export function screenRuleText(raw: string, options: RuleScreenOptions = {}): RuleScreenResult {
  const text = raw.trim();
  const rejections: RuleRejection[] = [];
  const maxChars = options.maxChars ?? MAX_RULE_CHARS;
  if (text === '') return { ok: false, rejections: [{ reason: 'empty', message: 'the rule is empty' }] };
  if (text.length > maxChars) {
    rejections.push({ reason: 'too_long', message: `the rule is ${text.length} characters (limit ${maxChars})` });
    // Far over the limit: refused already, and the patterns below are not run on unbounded text.
    if (text.length > 4 * Math.max(maxChars, MAX_RULE_CHARS)) return { ok: false, rejections };
  }
  const suspicious = findSuspiciousCharacter(text);
  if (suspicious !== null) {
    rejections.push(
      suspicious.kind === 'invisible'
        ? {
            reason: 'invisible_character',
            message: `contains an invisible or reordering character (${suspicious.codePoint})`,
          }
        : { reason: 'lookalike_character', message: `contains a look-alike character (${suspicious.codePoint})` },
    );
  }
  if ((text.match(/[\p{L}\p{N}]+/gu) ?? []).length < 2) {
    rejections.push({ reason: 'too_short', message: 'the rule has fewer than two words' });
  }
  const secret = findSecret(text);
  if (secret !== null) {
    rejections.push({
      reason: 'secret',
      message: `contains what looks like a ${secret.description} (rule ${secret.ruleId})`,
    });
  } else if (/\b(api[_-]?key|token|password|passwd|pwd|secret|bearer|authorization)\b\s*[:=]\s*\S{6,}/i.test(text)) {
    rejections.push({ reason: 'secret', message: 'contains a credential assignment' });
  } else if (TOKEN_SHAPES.test(text)) {
    rejections.push({ reason: 'secret', message: 'contains something shaped like an access token or key' });
  }
  for (const check of CHECKS) {
    if (rejections.some((rejection) => rejection.reason === check.reason)) continue;
    if (checkMatches(check, text)) rejections.push({ reason: check.reason, message: check.message });
  }
  const flat = squashed(text);
  if (!rejections.some((r) => r.reason === 'override') && SQUASHED_OVERRIDES.some((phrase) => flat.includes(phrase))) {
    rejections.push({ reason: 'override', message: "tries to override the agent's instructions (spelled out)" });
  }
  for (const check of SENTENCE_CHECKS) {
    if (rejections.some((rejection) => rejection.reason === check.reason) || !check.applies(text)) continue;
    if (unnegatedMatch({ ...check, matches: check.verb }, text)) {
      rejections.push({ reason: check.reason, message: check.message });
    }
  }
  for (const check of UNLESS_NEGATED) {
    if (rejections.some((rejection) => rejection.reason === check.reason)) continue;
    if (unnegatedMatch(check, text)) rejections.push({ reason: check.reason, message: check.message });
  }
  return rejections.length === 0 ? { ok: true, text } : { ok: false, rejections };
}
