// Why: the commit gates of checkout mode (issue 3, seed 002) decide, path by path, what never
// reaches the branch: ignored paths (the auto-maintained `.gitignore`), secrets (by file name or
// path here; by content through core's `findSecret`, applied in scan-mount.ts), and files over
// 1 MiB. Kept as pure functions in one module so the lists are reviewed in one
// place and documented in the README.

/** Largest file committed from a mounted directory (1 MiB, seed 002's `MAX_COMMIT_FILE_BYTES`). */
export const MAX_COMMIT_FILE_BYTES = 1024 * 1024;

/** Lines the auto-maintained `.gitignore` of a mount always holds. */
export const DEFAULT_IGNORE_LINES: readonly string[] = Object.freeze(['transcripts/', 'media/', '*.tmp']);

/**
 * File-name patterns of secrets that are never committed (matched case-insensitively against the
 * file's own name, at any depth; `*` matches any run of characters).
 */
export const SECRET_FILE_PATTERNS: readonly string[] = Object.freeze([
  '.env',
  '.env.*',
  '*.env',
  '*.pem',
  '*.key',
  '*.p12',
  '*.pfx',
  '*.keystore',
  '*.jks',
  '*.ppk',
  '*.kdbx',
  '*.gpg',
  'id_rsa*',
  'id_dsa*',
  'id_ecdsa*',
  'id_ed25519*',
  '.npmrc',
  '.yarnrc.yml',
  '.pypirc',
  '.netrc',
  '_netrc',
  '.pgpass',
  '.git-credentials',
  '.htpasswd',
  '.dockercfg',
  'credentials',
  'credentials*.json',
  'client_secret*.json',
  'service-account*.json',
  'secrets.json',
  'secrets.yml',
  'secrets.yaml',
  '*.tfstate',
  '*.tfstate.backup',
  '*.tfvars',
  '.terraformrc',
  'terraform.rc',
  '.envrc',
  'kubeconfig',
  '*.kubeconfig',
  'kubeconfig.y*ml',
  '.vault-token',
  '.s3cfg',
  '.boto',
  '.my.cnf',
  '*.ovpn',
  '.dockerconfigjson',
]);

/**
 * Path patterns of secrets that are never committed, matched case-insensitively against the end of
 * the path at a directory boundary (`**` matches any run of directories): files whose own name is
 * ordinary but whose place says what they hold.
 */
export const SECRET_PATH_PATTERNS: readonly string[] = Object.freeze([
  '.env/**',
  '.docker/config.json',
  '.kube/config',
  '.aws/config',
  '.aws/credentials',
  '.ssh/**',
  '.gnupg/**',
  '.config/gh/hosts.yml',
  '.azure/**',
  '.config/gcloud/**',
]);

function globToRegExpSource(glob: string): string {
  let source = '';
  for (let index = 0; index < glob.length; index += 1) {
    const char = glob[index] as string;
    if (char === '*') {
      if (glob[index + 1] === '*') {
        source += '.*';
        index += 1;
      } else source += '[^/]*';
    } else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return source;
}

const SECRET_PATTERNS: readonly RegExp[] = SECRET_FILE_PATTERNS.map(
  (pattern) => new RegExp(`^${globToRegExpSource(pattern)}$`, 'i'),
);

const SECRET_PATHS: readonly RegExp[] = SECRET_PATH_PATTERNS.map(
  (pattern) => new RegExp(`(?:^|/)${globToRegExpSource(pattern)}$`, 'i'),
);

/** The secret pattern a path's file name or place matches, or `undefined` when it is not a secret. */
export function secretPattern(path: string): string | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const index = SECRET_PATTERNS.findIndex((pattern) => pattern.test(name));
  if (index >= 0) return SECRET_FILE_PATTERNS[index];
  const pathIndex = SECRET_PATHS.findIndex((pattern) => pattern.test(path));
  return pathIndex < 0 ? undefined : SECRET_PATH_PATTERNS[pathIndex];
}

interface IgnoreRule {
  readonly line: string;
  readonly pattern: RegExp;
  /** Matches the whole relative path (the pattern had a `/` before its end) instead of one name. */
  readonly anchored: boolean;
  /** Matches directories only (the pattern ended with `/`). */
  readonly directoryOnly: boolean;
}

/**
 * Ignore rules read from a `.gitignore`: a subset of git's syntax (blank lines and `#` comments
 * skipped; `name/` matches directories, a pattern containing `/` is relative to the mount root,
 * `*`, `?` and `**` globs). Negations (`!pattern`) are not supported and are skipped. The default
 * lines ({@link DEFAULT_IGNORE_LINES}) always apply.
 */
export class IgnoreRules {
  readonly #rules: IgnoreRule[] = [];

  constructor(gitignore: string) {
    const lines = [...DEFAULT_IGNORE_LINES, ...gitignore.replace(/\r\n?/g, '\n').split('\n')];
    for (const raw of lines) {
      const line = raw.replace(/(?<!\\)\s+$/, '');
      if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
      const directoryOnly = line.endsWith('/');
      let body = directoryOnly ? line.slice(0, -1) : line;
      while (body.startsWith('**/')) body = body.slice(3);
      const anchored = body.includes('/');
      if (body.startsWith('/')) body = body.slice(1);
      if (body === '') continue;
      this.#rules.push({
        line,
        pattern: new RegExp(`^${globToRegExpSource(body.replace(/\\(.)/g, '$1'))}$`),
        anchored,
        directoryOnly,
      });
    }
  }

  /** The rule (its `.gitignore` line) that ignores the entry at `path` itself, or `undefined`. */
  matchEntry(path: string, isDirectory: boolean): string | undefined {
    const name = path.slice(path.lastIndexOf('/') + 1);
    for (const rule of this.#rules) {
      if (rule.directoryOnly && !isDirectory) continue;
      if (rule.pattern.test(rule.anchored ? path : name)) return rule.line;
    }
    return undefined;
  }

  /** The ignored path (`dir/` for a directory) that hides file `path`, or `undefined` when it is not ignored. */
  ignoredAncestor(path: string): string | undefined {
    const segments = path.split('/');
    for (let length = 1; length <= segments.length; length += 1) {
      const prefix = segments.slice(0, length).join('/');
      const isDirectory = length < segments.length;
      if (this.matchEntry(prefix, isDirectory) !== undefined) return isDirectory ? `${prefix}/` : prefix;
    }
    return undefined;
  }
}

/** `text` with every default ignore line present (appended, in order, when missing); unchanged otherwise. */
export function ensureIgnoreLines(text: string): string {
  const present = new Set(text.split(/\r?\n/).map((line) => line.trim()));
  const missing = DEFAULT_IGNORE_LINES.filter((line) => !present.has(line));
  if (missing.length === 0) return text;
  const prefix = text.length === 0 || text.endsWith('\n') ? text : `${text}\n`;
  return `${prefix}${missing.join('\n')}\n`;
}
