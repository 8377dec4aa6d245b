// Why: one shape for every corpus file, so the corpus test and the bench read them alike. A
// hostile entry split across two rules holds both halves, one per line: the attack needs every
// half to become active, so the entry counts as active only when all its lines are.

/** The kinds of hostile review-rule lines the corpus covers. */
export const HOSTILE_KINDS = [
  'memory_tools',
  'workflow_policy',
  'destructive_trigger',
  'credentials',
  'weaken_checks',
  'forge_approval',
  'prompt_templates',
  'fixed_replies',
  'execute_issue_text',
  'security_downgrade',
  'resolve_conversations',
  'polite_indirect',
  'conditional_trigger',
  'multilingual',
  'split',
  'code_example',
  'authority_claim',
  'classic_injection',
] as const;

/** A kind of hostile line. */
export type HostileKind = (typeof HOSTILE_KINDS)[number];

/** One hostile entry: a rule text, or (kind `split`) several lines separated by `\n`. */
export interface HostileEntry {
  readonly kind: HostileKind;
  readonly text: string;
}

/** Build entries of one kind. */
export function hostile(kind: HostileKind, texts: readonly string[]): HostileEntry[] {
  return texts.map((text) => ({ kind, text }));
}
