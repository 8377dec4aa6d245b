// Why: memory is often more widely readable than the code it describes, and agents paste
// credentials into it. These are the credential formats every write is scanned for. They are not
// a hand-written list: each rule is a rule of gitleaks' default configuration (config/gitleaks.toml,
// https://github.com/gitleaks/gitleaks, MIT License, Copyright (c) 2019 Zachary Rice), kept under
// its gitleaks id, restricted to the rules that match a token by its own fixed prefix or framing
// (so prose never trips them), and rewritten only where Go's RE2 syntax differs from JavaScript's
// (inline `(?i)` groups become explicit character classes). The one addition, the AWS secret
// access key assigned to a named variable, follows secretlint's AWS rule
// (@secretlint/secretlint-rule-aws, MIT License, Copyright (c) 2020 azu), since gitleaks leaves that
// secret to its entropy-based generic rule.

/** One credential format: a stable id (gitleaks' rule id), lower-case keywords that must occur, a pattern. */
export interface SecretRule {
  /** Stable rule id, as in the upstream rule set. */
  readonly id: string;
  /** What the rule finds, for humans. */
  readonly description: string;
  /** Lower-case strings one of which must occur in the text before the pattern is tried (fast pre-filter). */
  readonly keywords: readonly string[];
  /** The pattern (global flag set by the scanner). */
  readonly pattern: RegExp;
  /** Matches ending with one of these are documentation placeholders (AWS's `...EXAMPLE` keys). */
  readonly allowSuffixes?: readonly string[];
}

const END = String.raw`(?:[\x60'"\s;]|\\[nr]|$)`;

/** The credential formats every write is scanned for (see the module comment for their origin). */
export const SECRET_RULES: readonly SecretRule[] = Object.freeze([
  {
    id: 'aws-access-token',
    description: 'AWS access key id',
    keywords: ['a3t', 'akia', 'asia', 'abia', 'acca'],
    pattern: /\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b/,
    allowSuffixes: ['EXAMPLE'],
  },
  {
    id: 'aws-secret-access-key',
    description: 'AWS secret access key assigned to a variable',
    keywords: ['secret'],
    pattern:
      /(?:AWS|aws|Aws)?_?(?:SECRET|secret|Secret)_?(?:ACCESS|access|Access)?_?(?:KEY|key|Key)["']?\s*(?::|=>|=)\s*["']?[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])/,
    allowSuffixes: ['EXAMPLEKEY'],
  },
  {
    id: 'private-key',
    description: 'private key block',
    keywords: ['-----begin'],
    pattern: /-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[\s\S-]{64,}?KEY(?: BLOCK)?-----/i,
  },
  {
    id: 'github-pat',
    description: 'GitHub personal access token',
    keywords: ['ghp_'],
    pattern: /ghp_[0-9a-zA-Z]{36}/,
  },
  {
    id: 'github-fine-grained-pat',
    description: 'GitHub fine-grained personal access token',
    keywords: ['github_pat_'],
    pattern: /github_pat_\w{82}/,
  },
  { id: 'github-oauth', description: 'GitHub OAuth access token', keywords: ['gho_'], pattern: /gho_[0-9a-zA-Z]{36}/ },
  {
    id: 'github-app-token',
    description: 'GitHub App token',
    keywords: ['ghu_', 'ghs_'],
    pattern: /(?:ghu|ghs)_[0-9a-zA-Z]{36}/,
  },
  {
    id: 'github-refresh-token',
    description: 'GitHub refresh token',
    keywords: ['ghr_'],
    pattern: /ghr_[0-9a-zA-Z]{36}/,
  },
  { id: 'gitlab-pat', description: 'GitLab personal access token', keywords: ['glpat-'], pattern: /glpat-[\w-]{20}/ },
  {
    id: 'slack-bot-token',
    description: 'Slack bot token',
    keywords: ['xoxb'],
    pattern: /xoxb-[0-9]{10,13}-[0-9]{10,13}[a-zA-Z0-9-]*/,
  },
  {
    id: 'slack-user-token',
    description: 'Slack user token',
    keywords: ['xoxp-', 'xoxe-'],
    pattern: /xox[pe](?:-[0-9]{10,13}){3}-[a-zA-Z0-9-]{28,34}/,
  },
  {
    id: 'slack-app-token',
    description: 'Slack app-level token',
    keywords: ['xapp'],
    pattern: /xapp-\d-[A-Za-z0-9]+-\d+-[a-zA-Z0-9]+/i,
  },
  {
    id: 'slack-legacy-token',
    description: 'Slack legacy token',
    keywords: ['xoxo', 'xoxs'],
    pattern: /xox[os]-\d+-\d+-\d+-[a-fA-F\d]+/,
  },
  {
    id: 'slack-webhook-url',
    description: 'Slack incoming webhook URL',
    keywords: ['hooks.slack.com'],
    pattern: /hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9+/]{43,56}/,
  },
  {
    id: 'stripe-access-token',
    description: 'Stripe secret or restricted key',
    keywords: ['sk_test', 'sk_live', 'sk_prod', 'rk_test', 'rk_live', 'rk_prod'],
    pattern: new RegExp(String.raw`\b(?:sk|rk)_(?:test|live|prod)_[a-zA-Z0-9]{10,99}${END}`),
  },
  {
    id: 'npm-access-token',
    description: 'npm access token',
    keywords: ['npm_'],
    pattern: new RegExp(String.raw`\bnpm_[a-zA-Z0-9]{36}${END}`),
  },
  {
    id: 'pypi-upload-token',
    description: 'PyPI upload token',
    keywords: ['pypi-ageichlwas5vcmc'],
    pattern: /pypi-AgEIcHlwaS5vcmc[\w-]{50,1000}/,
  },
  {
    id: 'gcp-api-key',
    description: 'Google Cloud API key',
    keywords: ['aiza'],
    pattern: new RegExp(String.raw`\bAIza[\w-]{35}${END}`),
  },
  {
    id: 'openai-api-key',
    description: 'OpenAI API key',
    keywords: ['t3blbkfj'],
    pattern:
      /\bsk-(?:(?:proj|svcacct|admin)-(?:[A-Za-z0-9_-]{74}|[A-Za-z0-9_-]{58})T3BlbkFJ(?:[A-Za-z0-9_-]{74}|[A-Za-z0-9_-]{58})\b|[a-zA-Z0-9]{20}T3BlbkFJ[a-zA-Z0-9]{20})/,
  },
  {
    id: 'anthropic-api-key',
    description: 'Anthropic API key',
    keywords: ['sk-ant-api03', 'sk-ant-admin01'],
    pattern: new RegExp(String.raw`\bsk-ant-(?:api03|admin01)-[a-zA-Z0-9_-]{93}AA${END}`),
  },
  {
    id: 'sendgrid-api-token',
    description: 'SendGrid API key',
    keywords: ['sg.'],
    pattern: new RegExp(String.raw`\bSG\.[A-Za-z0-9=_\-.]{66}${END}`),
  },
  {
    id: 'digitalocean-pat',
    description: 'DigitalOcean personal access token',
    keywords: ['dop_v1_'],
    pattern: new RegExp(String.raw`\bdop_v1_[a-f0-9]{64}${END}`),
  },
  {
    id: 'shopify-access-token',
    description: 'Shopify access token',
    keywords: ['shpat_', 'shpca_', 'shppa_', 'shpss_'],
    pattern: /shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}/,
  },
  {
    id: 'age-secret-key',
    description: 'age encryption secret key',
    keywords: ['age-secret-key-1'],
    pattern: /AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}/,
  },
  {
    id: 'huggingface-access-token',
    description: 'Hugging Face access token',
    keywords: ['hf_'],
    pattern: new RegExp(String.raw`\bhf_[a-zA-Z]{34}${END}`),
  },
] satisfies SecretRule[]);
