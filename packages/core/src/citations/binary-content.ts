// Why: every citation reader (directory, git, GitHub) must call the same bytes "binary", or one
// memory would verify against one source and not another; the rule lives here, next to the
// reader interface, so reader packages share it.

/** True when `bytes` contain a NUL byte or are not valid UTF-8 (a reader reports them as `binary`). */
export function isBinaryContent(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return false;
  } catch {
    return true;
  }
}
