// Why: `init` seeds a README.md that tells humans and agents what the memory tree holds and which
// two tools edit and search it; kept as its own module so the wording is reviewed in one place.
// Its first line is the scaffold marker, so search skips it (layout notes must not outrank
// memory) until someone edits that line away.
import { SCAFFOLD_MARKER } from '../search/document-filter.js';

/** Content of the `README.md` seeded by `init` (only when the tree has none). */
export const MEMORY_README = `${SCAFFOLD_MARKER}: seeded by repomem init. repomem search skips this file while this line is here; delete the line to make it searchable. -->
# Repository memory

This tree holds durable, repository-scoped memory for AI coding agents. It is managed by
repomem in the layout of Sepo's agent memory, and may live in a plain directory, on a git
branch, or in a repomem store such as the embedded SQLite file.

## Layout

- \`PROJECT.md\`: slow-changing project context (goals, constraints, open questions).
- \`MEMORY.md\`: durable conventions and lessons agents should carry forward.
- \`daily/YYYY-MM-DD.md\`: append-only daily activity bullets (one file per UTC day).
- \`github/<owner>/<repo>/{issue,pull,discussion}-<n>.json\`: a mirror of repository issues, pull
  requests and discussions, for lookup.

\`PROJECT.md\` and \`MEMORY.md\` start empty: their title and \`## Section\` headers appear with the
first bullet added. Agents may add other notes when that keeps durable context easier to use.

## Tools

Search the whole tree (Markdown and JSON mirrors), best matches first:

\`\`\`sh
repomem search --dir <this directory> "release checklist"
repomem search --json --limit 10 "flaky test"
\`\`\`

Edit bullets with validated, section-scoped updates (prefer these to hand edits: they keep
placement, formatting and dedup consistent, and never lose a concurrent update):

\`\`\`sh
repomem update add --file MEMORY.md --section Conventions "Run pnpm test before pushing"
repomem update replace --file MEMORY.md --section Conventions --match "pnpm test" --with "Run pnpm check before pushing"
repomem update remove --file MEMORY.md --section Conventions --match "pnpm check"
repomem update daily-append "Triaged issue #42"
\`\`\`

Which tree a command works on: \`--store <spec>\` (\`dir:<path>\`, \`git:<repository>#<branch>\`,
\`sqlite:<file>\`), else \`--dir <path>\`, else \`$REPOMEM_STORE\`, else \`$MEMORY_DIR\`; with none of
these, repomem uses the embedded SQLite store \`.repomem/repomem.db\` in the working directory (not
the working directory itself). \`--file\` is \`MEMORY.md\` or \`PROJECT.md\`. Exit code 0 means done
(or nothing to change), 2 means the request needs fixing (section not found, no bullet matched,
several bullets matched: refine \`--match\`), 1 means a usage error.
`;
