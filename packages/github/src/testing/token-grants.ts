// Why: on GitHub a token sees only some repositories and, when fine-grained or a GitHub App's,
// only the parts of them it was granted (Issues, Pull requests, Discussions). What GitHub answers
// then (NOT_FOUND for a repository it cannot see, FORBIDDEN for a part it may not read) is what a
// sync must turn into "grant this permission"; extra tokens with such grants let tests ask for it.
import { GraphQLError } from 'graphql';

/** The repository parts a fine-grained token or a GitHub App is granted separately. */
export type LoopbackPermissionName = 'issues' | 'pullRequests' | 'discussions';

/** A token the loopback API accepts besides its main one, with what it may read. */
export interface LoopbackTokenOptions {
  /** The bearer token. */
  readonly token: string;
  /** Login of its user (default: the server's `viewer`). */
  readonly viewer?: string;
  /** Whose token it is: a fine-grained personal token (default) or a GitHub App's; GitHub words refusals differently. */
  readonly kind?: 'personal' | 'app';
  /** Parts it may read (default `read` for each); `none` answers FORBIDDEN like GitHub. */
  readonly permissions?: Readonly<Partial<Record<LoopbackPermissionName, 'read' | 'none'>>>;
  /** Repositories (`owner/name`) it can see (default: all); the others answer NOT_FOUND, as GitHub hides them. */
  readonly repositories?: readonly string[];
  /** Its own GraphQL points per hour (default 5000) and what is left at start (default: all). */
  readonly rateLimit?: { readonly limit?: number; readonly remaining?: number };
}

/** What the presented token may do. */
export interface TokenGrant {
  readonly viewer: string;
  readonly kind: 'personal' | 'app';
  readonly permissions: Readonly<Record<LoopbackPermissionName, 'read' | 'none'>>;
  /** Lower-case `owner/name` of the repositories it sees; undefined for all. */
  readonly repositories: ReadonlySet<string> | undefined;
}

/** The grant of a token defined by `options` (the main token: everything, for `viewer`). */
export function tokenGrant(options: Omit<LoopbackTokenOptions, 'token'>, viewer: string): TokenGrant {
  return {
    viewer: options.viewer ?? viewer,
    kind: options.kind ?? 'personal',
    permissions: {
      issues: options.permissions?.issues ?? 'read',
      pullRequests: options.permissions?.pullRequests ?? 'read',
      discussions: options.permissions?.discussions ?? 'read',
    },
    repositories:
      options.repositories === undefined ? undefined : new Set(options.repositories.map((repo) => repo.toLowerCase())),
  };
}

/** True when the token can see repository `owner/name`. */
export function canSee(grant: TokenGrant, owner: string, name: string): boolean {
  return grant.repositories === undefined || grant.repositories.has(`${owner}/${name}`.toLowerCase());
}

/** Throws GitHub's FORBIDDEN error when the token may not read `part`. */
export function requirePermission(grant: TokenGrant, part: LoopbackPermissionName): void {
  if (grant.permissions[part] === 'read') return;
  const holder = grant.kind === 'app' ? 'integration' : 'personal access token';
  throw new GraphQLError(`Resource not accessible by ${holder}`, {
    extensions: { type: 'FORBIDDEN', saml_failure: false },
  });
}
