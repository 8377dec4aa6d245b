// Why: a document path ends up as a tree entry on the git store and as a file in checkouts on
// every platform, and documents move between stores, so every store refuses the names git itself
// refuses in a tree (`git fsck --strict`: hasDotgit, and .gitmodules/.gitattributes whose content
// git parses and fsck checks). This follows git's own rules (path.c `is_ntfs_dotgit`,
// `is_ntfs_dot_generic`; utf8.c `is_hfs_dotgit`): ASCII case-insensitive, trailing dots and spaces
// and NTFS alternate data streams (`.git.`, `.git::$INDEX_ALLOCATION`), NTFS 8.3 short names
// (`git~1`, `gitmod~1`, `gi7eba~1`) and code points HFS+ ignores (`.g\u200Cit`).

/** Code points HFS+ ignores in file names (git's `next_hfs_char`). */
const HFS_IGNORED = /[\u200C-\u200F\u202A-\u202E\u206A-\u206F\uFEFF]/g;

/** Dot-names git treats specially, with the prefix of their NTFS fall-back short name. */
const DOT_NAMES: ReadonlyArray<{ readonly name: string; readonly shortPrefix: string }> = [
  { name: 'gitmodules', shortPrefix: 'gi7eba' },
  { name: 'gitattributes', shortPrefix: 'gi7d29' },
];

/** Only `' '` and `'.'` up to the end, or up to an NTFS stream separator `:`. */
function onlySpacesAndPeriods(rest: string): boolean {
  for (const character of rest) {
    if (character === ':') return true;
    if (character !== ' ' && character !== '.') return false;
  }
  return true;
}

/** git's `is_hfs_dot_generic`: `.<needle>` once HFS-ignored code points are dropped, ASCII case-insensitive. */
function isHfsDotName(segment: string, needle: string): boolean {
  const folded = segment.replace(HFS_IGNORED, '');
  if (folded.length !== needle.length + 1 || folded[0] !== '.') return false;
  for (let index = 0; index < needle.length; index += 1) {
    const code = folded.charCodeAt(index + 1);
    if (code > 127 || String.fromCharCode(code).toLowerCase() !== needle[index]) return false;
  }
  return true;
}

/** git's `is_ntfs_dotgit`: `.git` or `git~1`, then only dots and spaces (or a `:` stream). */
function isNtfsDotGit(segment: string): boolean {
  const lower = segment.toLowerCase();
  if (lower.startsWith('.git')) return onlySpacesAndPeriods(segment.slice(4));
  if (lower.startsWith('git~1')) return onlySpacesAndPeriods(segment.slice(5));
  return false;
}

/** git's `is_ntfs_dot_generic` for `.gitmodules`-like names. */
function isNtfsDotName(segment: string, name: string, shortPrefix: string): boolean {
  const lower = segment.toLowerCase();
  if (lower.startsWith(`.${name}`)) return onlySpacesAndPeriods(segment.slice(name.length + 1));
  // Regular short name: the first six characters, then ~1 to ~4.
  if (lower.startsWith(name.slice(0, 6)) && segment[6] === '~' && /^[1-4]$/.test(segment[7] ?? '')) {
    return onlySpacesAndPeriods(segment.slice(8));
  }
  // Fall-back short name: up to six characters of the hashed prefix, `~`, then digits (8 in all).
  let sawTilde = false;
  for (let index = 0; index < 8; index += 1) {
    const character = segment[index];
    if (character === undefined) return false;
    if (sawTilde) {
      if (character < '0' || character > '9') return false;
    } else if (character === '~') {
      index += 1;
      const digit = segment[index];
      if (digit === undefined || digit < '1' || digit > '9') return false;
      sawTilde = true;
    } else if (index >= 6 || character.charCodeAt(0) > 127 || character.toLowerCase() !== shortPrefix[index]) {
      return false;
    }
  }
  return onlySpacesAndPeriods(segment.slice(8));
}

/**
 * The name git reserves that `segment` (one path component) stands for on some file system
 * (`.git`, `.gitmodules` or `.gitattributes`), or `undefined` when git accepts it in a tree.
 *
 * @example gitReservedName('.GIT') === '.git'; gitReservedName('git~1') === '.git'
 */
export function gitReservedName(segment: string): string | undefined {
  if (isHfsDotName(segment, 'git') || isNtfsDotGit(segment)) return '.git';
  for (const { name, shortPrefix } of DOT_NAMES) {
    if (isHfsDotName(segment, name) || isNtfsDotName(segment, name, shortPrefix)) return `.${name}`;
  }
  return undefined;
}
