// Why: `repomem sync`, declared once.
import { defineCommand } from '../types.js';
import { DIR, JSON_OUTPUT, STORE } from './common.js';

/** `repomem sync`. */
export const SYNC = defineCommand({
  name: 'sync',
  usage: [
    'github [--repo <owner/name>] [--store <spec> | --dir <path>] [--max-requests <n>]',
    ' [--since <time>] [--json]',
    'github [--repo <owner/name>] --migrate-legacy [--apply] [--store <spec> | --dir <path>]',
  ],
  description: `Mirrors the repository's issues, pull requests and discussions into
github/<owner>/<repo>/{issue,pull,discussion}-<n>.json of the store, as \`gh ... --json\` writes them
(jq queries written for gh output keep working). Incremental: only items updated since the last
sync are fetched, a few requests per thousand items; an unchanged item rewrites nothing. The
cursors are the sync state (refs/agent-memory-state/sync on a git store, Sepo's state.json
schema), moved only after a page's files are written, so an interrupted sync resumes where it
stopped. On a terminal a progress line follows each page; otherwise one summary line.`,
  subcommands: [{ name: 'github', summary: 'Mirror a GitHub repository (the only source)' }],
  options: {
    repo: {
      type: 'string',
      value: 'o/n',
      description:
        "Repository to mirror (default $GITHUB_REPOSITORY, then the owner/name of the clone's origin remote)",
    },
    store: { ...STORE, description: 'Store (see repomem --help for the order; default sqlite:.repomem/repomem.db)' },
    dir: { ...DIR, description: 'Memory directory (same as --store dir:<path>)' },
    'max-requests': {
      type: 'integer',
      value: 'n',
      description: 'Stop after n requests (the next run resumes); exit 0',
    },
    since: {
      type: 'string',
      value: 'time',
      description:
        'Mirror items updated at or after this ISO 8601 time instead of continuing from the cursors (a backfill)',
    },
    'migrate-legacy': {
      type: 'boolean',
      description:
        'Move flat github/{issue,pull,discussion}-<n>.json files into github/<owner>/<repo>/ instead of syncing: prints the plan (dry run)',
    },
    apply: { type: 'boolean', description: 'With --migrate-legacy: perform the moves' },
    json: { ...JSON_OUTPUT, description: 'The summary (or the plan) as one JSON object' },
  },
  sections: [
    {
      title: 'Environment',
      body: `  GITHUB_TOKEN, GH_TOKEN   Token (the first set); needs read access to issues, pull requests,
                           discussions and metadata (fine-grained: Issues, Pull requests,
                           Discussions, Metadata: read; Actions: permissions issues, pull-requests,
                           discussions: read)
  GITHUB_API_URL           API root (default https://api.github.com; Enterprise: https://host/api/v3)
  GITHUB_GRAPHQL_URL       GraphQL endpoint (default: derived from the API root)`,
    },
    {
      title: 'Exit codes',
      body: `  0 complete (or stopped by --max-requests), 2 repository not found, a token without a
  permission, or a sync interrupted by a rate limit or a GitHub outage (resumes next run), 1 usage.`,
    },
  ],
  examples: [
    {
      command: 'sync github --repo acme/shop',
      description: "Mirror acme/shop's issues, pull requests and discussions",
    },
    {
      command: 'sync github --max-requests 50 --json',
      description: "Mirror the origin remote's repository, 50 requests at most",
    },
  ],
  load: async () => (await import('../../commands/sync.js')).runSyncCommand,
});
