// Why: a review comment is only as trustworthy as its author. GitHub tells us each author's
// relation to the repository (`author_association`); this module maps it to the authority levels
// review rules are weighted by and decides who may teach the agent a rule at all.
import { z } from 'zod';

/** The `author_association` values GitHub sends on reviews and review comments. */
export const AUTHOR_ASSOCIATIONS = [
  'OWNER',
  'MEMBER',
  'COLLABORATOR',
  'CONTRIBUTOR',
  'FIRST_TIME_CONTRIBUTOR',
  'FIRST_TIMER',
  'MANNEQUIN',
  'NONE',
] as const;

/** Zod schema of a GitHub `author_association` (upper-case, as GitHub sends it). */
export const AuthorAssociationSchema = z.enum(AUTHOR_ASSOCIATIONS, {
  error: `expected one of ${AUTHOR_ASSOCIATIONS.join(', ')}`,
});
/** A GitHub `author_association`. */
export type AuthorAssociation = z.infer<typeof AuthorAssociationSchema>;

/** Reviewer authority levels, strongest first. */
export const REVIEWER_AUTHORITIES = ['owner', 'member', 'collaborator', 'contributor', 'none'] as const;
/** Zod schema of a reviewer authority level. */
export const ReviewerAuthoritySchema = z.enum(REVIEWER_AUTHORITIES);
/** How much a reviewer's word counts: owner, member, collaborator, contributor or none. */
export type ReviewerAuthority = z.infer<typeof ReviewerAuthoritySchema>;

/**
 * Weight of a rule by its reviewer's authority (0-1). Hydration orders rules by it, and a rule
 * never supersedes a rule of higher weight.
 */
export const AUTHORITY_WEIGHTS: Readonly<Record<ReviewerAuthority, number>> = Object.freeze({
  owner: 1,
  member: 0.9,
  collaborator: 0.8,
  contributor: 0.4,
  none: 0.2,
});

/** The authority level of an association (first-time contributors count as contributors). */
export function authorityOf(association: AuthorAssociation): ReviewerAuthority {
  switch (association) {
    case 'OWNER':
      return 'owner';
    case 'MEMBER':
      return 'member';
    case 'COLLABORATOR':
      return 'collaborator';
    case 'CONTRIBUTOR':
    case 'FIRST_TIME_CONTRIBUTOR':
    case 'FIRST_TIMER':
      return 'contributor';
    default:
      return 'none';
  }
}

/** True for the associations that imply write access: OWNER, MEMBER and COLLABORATOR. */
export function hasWriteAccess(association: AuthorAssociation): boolean {
  const authority = authorityOf(association);
  return authority === 'owner' || authority === 'member' || authority === 'collaborator';
}

/**
 * Parse an association given by a person (`member`, `MEMBER`, `first-time-contributor`); throws
 * a ZodError naming the accepted values otherwise.
 */
export function parseAuthorAssociation(value: string): AuthorAssociation {
  return AuthorAssociationSchema.parse(value.trim().toUpperCase().replace(/-/g, '_'));
}
