// Why: commits are written and read as raw git objects (no worktree, no index), so their exact
// format (identity lines with time zone, parents, message) is produced and parsed here, in the
// shape `git fsck --strict` accepts.
import { RepomemError } from '@repomem/core';

/** A person or agent recorded on a commit. */
export interface GitIdentity {
  /** Display name (no `<`, `>` or newlines). */
  readonly name: string;
  /** E-mail address (no `<`, `>` or newlines). */
  readonly email: string;
}

/** An identity with the moment it acted. */
export interface GitSignature extends GitIdentity {
  /** When (second precision). */
  readonly time: Date;
  /** Offset from UTC in minutes, as recorded (east positive). */
  readonly timezoneOffsetMinutes: number;
}

/** A parsed commit object. */
export interface ParsedCommit {
  readonly oid: string;
  readonly tree: string;
  readonly parents: readonly string[];
  readonly author: GitSignature;
  readonly committer: GitSignature;
  /** Full message as stored. */
  readonly message: string;
}

const FORBIDDEN_IDENTITY = /[<>\n\r\0]/;

/** Validate an identity; throws `INVALID_ARGUMENT` naming `role` (`author`, `committer`). */
export function assertIdentity(identity: GitIdentity, role: string): GitIdentity {
  if (identity === null || typeof identity !== 'object') {
    throw new RepomemError('INVALID_ARGUMENT', `${role} must be an object { name, email }`);
  }
  const { name, email } = identity;
  if (typeof name !== 'string' || name.trim().length === 0 || FORBIDDEN_IDENTITY.test(name)) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `${role} name must be non-empty without <, > or newlines: ${JSON.stringify(name)}`,
    );
  }
  if (typeof email !== 'string' || FORBIDDEN_IDENTITY.test(email)) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `${role} email must not contain <, > or newlines: ${JSON.stringify(email)}`,
    );
  }
  return { name: name.trim(), email: email.trim() };
}

function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const absolute = Math.abs(minutes);
  return `${sign}${String(Math.floor(absolute / 60)).padStart(2, '0')}${String(absolute % 60).padStart(2, '0')}`;
}

/** `Name <email> <seconds> <+hhmm>`, as in commit headers and reflogs. */
export function formatSignature(identity: GitIdentity, time: Date): string {
  const seconds = Math.floor(time.getTime() / 1000);
  return `${identity.name} <${identity.email}> ${seconds} ${formatOffset(-time.getTimezoneOffset())}`;
}

/** Content of a commit object. `message` must end with a newline. */
export function serializeCommit(fields: {
  tree: string;
  parents: readonly string[];
  author: string;
  committer: string;
  message: string;
}): Buffer {
  const lines = [`tree ${fields.tree}`, ...fields.parents.map((parent) => `parent ${parent}`)];
  lines.push(`author ${fields.author}`, `committer ${fields.committer}`);
  return Buffer.from(`${lines.join('\n')}\n\n${fields.message}`, 'utf8');
}

function parseSignature(value: string): GitSignature {
  const match = /^(.*?) ?<([^>]*)> (\d+) ([+-])(\d{2})(\d{2})$/.exec(value);
  if (match === null) {
    return { name: value, email: '', time: new Date(0), timezoneOffsetMinutes: 0 };
  }
  const [, name = '', email = '', seconds = '0', sign, hours = '0', minutes = '0'] = match;
  const offset = (Number(hours) * 60 + Number(minutes)) * (sign === '-' ? -1 : 1);
  return { name, email, time: new Date(Number(seconds) * 1000), timezoneOffsetMinutes: offset };
}

/** Parse a commit object's content. Throws `INVALID_DOCUMENT` when it has no tree. */
export function parseCommit(oid: string, content: Uint8Array): ParsedCommit {
  const text = Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('utf8');
  const split = text.indexOf('\n\n');
  const headerText = split < 0 ? text : text.slice(0, split);
  const message = split < 0 ? '' : text.slice(split + 2);
  let tree: string | undefined;
  const parents: string[] = [];
  let author: GitSignature | undefined;
  let committer: GitSignature | undefined;
  for (const line of headerText.split('\n')) {
    if (line.startsWith(' ')) continue; // continuation of a multi-line header (gpgsig, mergetag)
    const space = line.indexOf(' ');
    const key = line.slice(0, space);
    const value = line.slice(space + 1);
    if (key === 'tree') tree = value;
    else if (key === 'parent') parents.push(value);
    else if (key === 'author') author = parseSignature(value);
    else if (key === 'committer') committer = parseSignature(value);
  }
  if (tree === undefined) {
    throw new RepomemError('INVALID_DOCUMENT', `malformed git commit ${oid} (no tree)`, { details: { oid } });
  }
  const unknown: GitSignature = { name: '', email: '', time: new Date(0), timezoneOffsetMinutes: 0 };
  return {
    oid,
    tree,
    parents,
    author: author ?? committer ?? unknown,
    committer: committer ?? author ?? unknown,
    message,
  };
}
