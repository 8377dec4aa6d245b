// Why: commit attribution must work with nothing but git and a POSIX shell on the machine where
// the agent commits: the hook is a small sh script that lets `git interpret-trailers` do the
// message editing (comment lines, existing trailers, `--if-exists` rules), runs any hook it
// replaced first, and never blocks a commit because attribution is not configured.
import { createHash } from 'node:crypto';

/** The hook repomem installs. */
export const HOOK_NAME = 'prepare-commit-msg';
/** Where the hook that was there before is kept (next to it) and from where it is chained. */
export const CHAINED_HOOK_NAME = 'prepare-commit-msg.repomem-chained';
/** Line that marks a hook as repomem's (install and uninstall recognise their own hook by it). */
export const HOOK_MARKER = '# repomem-managed: prepare-commit-msg (repomem hooks install)';
/** Environment variable holding the task id (no trailer at all when empty or unset). */
export const TASK_ID_VARIABLE = 'REPOMEM_TASK_ID';
/** Environment variable holding the prompt version (`Prompt-Version:` trailer when set). */
export const PROMPT_VERSION_VARIABLE = 'REPOMEM_PROMPT_VERSION';

/**
 * The hook script. Behaviour:
 * 1. runs the chained previous hook, if executable, with the same arguments (its failure fails the commit);
 * 2. does nothing more when `REPOMEM_TASK_ID` is empty or unset, or during a rebase (replayed
 *    commits keep the trailers they have);
 * 3. refuses values with characters a trailer cannot safely hold (newlines...) with a warning;
 * 4. adds `Task-Id:` and, when set, `Prompt-Version:` with
 *    `git interpret-trailers --in-place --if-exists addIfDifferent`, so an amend or a second run
 *    never duplicates a trailer.
 */
export function hookScript(): string {
  return `#!/bin/sh
${HOOK_MARKER}
# Adds Task-Id: and Prompt-Version: trailers from $${TASK_ID_VARIABLE} and $${PROMPT_VERSION_VARIABLE}.
# "repomem hooks uninstall" removes this file and restores the hook that was here before.
hook_dir=$(dirname "$0")
chained="$hook_dir/${CHAINED_HOOK_NAME}"
if [ -x "$chained" ]; then
  "$chained" "$@" || exit $?
fi
message_file=$1
[ -n "$${TASK_ID_VARIABLE}" ] || exit 0
git_dir=$(git rev-parse --git-dir 2>/dev/null) || exit 0
if [ -d "$git_dir/rebase-merge" ] || [ -d "$git_dir/rebase-apply" ]; then
  exit 0
fi
valid() {
  case $1 in
    '' | *[!A-Za-z0-9._:@/+=-]*) return 1 ;;
  esac
  [ \${#1} -le 200 ]
}
if ! valid "$${TASK_ID_VARIABLE}"; then
  echo "repomem: ${TASK_ID_VARIABLE} holds characters a trailer cannot hold; no Task-Id trailer added" >&2
  exit 0
fi
set -- --in-place --if-exists addIfDifferent --trailer "Task-Id: $${TASK_ID_VARIABLE}"
if [ -n "$${PROMPT_VERSION_VARIABLE}" ]; then
  if valid "$${PROMPT_VERSION_VARIABLE}"; then
    set -- "$@" --trailer "Prompt-Version: $${PROMPT_VERSION_VARIABLE}"
  else
    echo "repomem: ${PROMPT_VERSION_VARIABLE} holds characters a trailer cannot hold; no Prompt-Version trailer added" >&2
  fi
fi
# A message without a final newline (git merge writes one) would get its trailers glued to the
# last line instead of in their own paragraph.
if [ -s "$message_file" ] && [ -n "$(tail -c 1 "$message_file")" ]; then
  printf '\n' >> "$message_file"
fi
git interpret-trailers "$@" "$message_file"
`;
}

/** True when `content` is a hook repomem installed (possibly edited since). */
export function isRepomemHook(content: string): boolean {
  return content.split('\n', 3).includes(HOOK_MARKER);
}

/**
 * SHA-256 digests of the hook scripts earlier releases installed. When {@link hookScript}
 * changes, add the digest of the version it replaces here, so that version is still recognised
 * as repomem's own text (and updated) rather than as a hook someone edited.
 */
const EARLIER_HOOK_DIGESTS: ReadonlySet<string> = new Set<string>();

/** True when `content` is exactly a script repomem wrote (this release's or an earlier one's), with no line added. */
export function isPristineRepomemHook(content: string): boolean {
  return content === hookScript() || EARLIER_HOOK_DIGESTS.has(createHash('sha256').update(content).digest('hex'));
}
