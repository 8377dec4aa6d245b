// Why: a command run anywhere inside a clone should work on that clone: the default store lives
// at the clone's root and the repository is named by its `origin` remote. Spawning `git` on every
// command would cost tens of milliseconds of cold start, so the clone is found by looking for
// `.git` from the working directory up, and the remote is read from the config file directly
// (a linked worktree's `.git` file and its `commondir` are followed to the shared config).
import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** A clone found around a working directory. */
export interface GitClone {
  /** Absolute top directory of the working tree (the directory holding `.git`). */
  readonly root: string;
  /** Absolute path of the config file holding the clone's remotes (shared by its worktrees). */
  readonly configPath: string;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function kindOf(path: string): 'file' | 'directory' | undefined {
  try {
    const stats = statSync(path);
    return stats.isDirectory() ? 'directory' : stats.isFile() ? 'file' : undefined;
  } catch {
    return undefined;
  }
}

/** The git directory a `.git` file points to (`gitdir: <path>`, relative to the file's directory). */
function gitDirOfFile(dotGit: string): string | undefined {
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(readText(dotGit) ?? '');
  if (match?.[1] === undefined) return undefined;
  return isAbsolute(match[1]) ? match[1] : resolve(dirname(dotGit), match[1]);
}

/** The directory holding the shared config: a linked worktree's `commondir`, else the git directory. */
function commonDirOf(gitDir: string): string {
  const common = readText(join(gitDir, 'commondir'))?.trim();
  if (common === undefined || common === '') return gitDir;
  return isAbsolute(common) ? common : resolve(gitDir, common);
}

/**
 * The clone whose working tree holds `cwd` (the nearest `.git` directory or file, from `cwd`
 * up), or `undefined` outside any clone. Reads only the file system; never spawns git.
 */
export function findGitClone(cwd: string): GitClone | undefined {
  let dir = resolve(cwd);
  for (;;) {
    const dotGit = join(dir, '.git');
    const kind = kindOf(dotGit);
    const gitDir = kind === 'directory' ? dotGit : kind === 'file' ? gitDirOfFile(dotGit) : undefined;
    if (gitDir !== undefined) return { root: dir, configPath: join(commonDirOf(gitDir), 'config') };
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** A config value: quotes removed, git's escapes (`\"`, `\\`, `\t`, `\n`) applied, an unquoted comment dropped. */
function configValue(raw: string): string {
  let value = '';
  let quoted = false;
  for (let index = 0; index < raw.length; index += 1) {
    const char = raw[index] as string;
    if (char === '"') quoted = !quoted;
    else if (char === '\\') {
      const next = raw[index + 1] ?? '';
      value += next === 't' ? '\t' : next === 'n' ? '\n' : next;
      index += 1;
    } else if (!quoted && (char === '#' || char === ';')) break;
    else value += char;
  }
  return value.trim();
}

/**
 * The `url` of `[remote "<name>"]` in a git config text (the last one given, as git reads it),
 * or `undefined`. Section names are case-insensitive, the remote's name is not.
 */
export function remoteUrlOfConfig(text: string, remote = 'origin'): string | undefined {
  let inRemote = false;
  let url: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trim();
    const section = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\](.*)$/.exec(trimmed);
    if (section !== null) {
      const subsection = section[2]?.replace(/\\(.)/g, '$1');
      inRemote = section[1]?.toLowerCase() === 'remote' && subsection === remote;
      // `[remote "origin"] url = ...` on one line is valid git config.
      const rest = section[3]?.trim() ?? '';
      if (!inRemote || rest === '') continue;
      const inline = /^url\s*=(.*)$/i.exec(rest);
      if (inline !== null) url = configValue(inline[1] ?? '');
      continue;
    }
    if (!inRemote) continue;
    const entry = /^url\s*=(.*)$/i.exec(trimmed);
    if (entry !== null) url = configValue(entry[1] ?? '');
  }
  return url === '' ? undefined : url;
}

/**
 * The `owner/name` a GitHub or GitHub Enterprise remote URL names, or `undefined` for anything
 * else (a local path, a host path of more or fewer than two parts). Accepts `https://`,
 * `http://`, `ssh://` (with a user and a port), `git://`, and scp-like `[user@]host:owner/name`,
 * each with or without `.git` and a trailing slash.
 */
export function repoSlugOfRemoteUrl(url: string): string | undefined {
  const text = url.trim();
  let path: string;
  const withScheme = /^(?:https?|ssh|git|git\+ssh|ssh\+git):\/\/[^/]+(\/.*)$/i.exec(text);
  if (withScheme !== null) path = withScheme[1] ?? '';
  else {
    // scp-like syntax: no scheme, a host before the first colon, and no slash before it.
    const scp = /^(?:[^@/\s]+@)?[^:/\s]+:(.+)$/.exec(text);
    if (scp === null || /^[A-Za-z]:[\\/]/.test(text)) return undefined;
    path = scp[1] ?? '';
  }
  const parts = path
    .replace(/[?#].*$/, '')
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '')
    .split('/')
    .filter((part) => part !== '');
  if (parts.length !== 2) return undefined;
  const slug = `${parts[0]}/${parts[1]}`;
  return /^[A-Za-z0-9][A-Za-z0-9-]{0,38}\/[A-Za-z0-9._-]{1,100}$/.test(slug) && !/\/\.\.?$/.test(slug)
    ? slug
    : undefined;
}

/** The repository a clone's `origin` remote names: the slug and the URL it came from. */
export interface OriginRepo {
  readonly slug: string;
  readonly url: string;
}

/** The `owner/name` of the `origin` remote of the clone around `cwd`, or `undefined`. */
export function originRepoOf(cwd: string): OriginRepo | undefined {
  const clone = findGitClone(cwd);
  if (clone === undefined) return undefined;
  const url = remoteUrlOfConfig(readText(clone.configPath) ?? '');
  if (url === undefined) return undefined;
  const slug = repoSlugOfRemoteUrl(url);
  return slug === undefined ? undefined : { slug, url };
}
