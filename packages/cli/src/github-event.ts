// Why: several commands read the GitHub Actions event payload ($GITHUB_EVENT_PATH); one reader
// gives them the same errors for a missing, unreadable or malformed file.
import { readFile } from 'node:fs/promises';
import { CliDataError } from './errors.js';

/**
 * The parsed JSON at `path` ($GITHUB_EVENT_PATH). Without a path: `undefined`, or `NOT_FOUND`
 * when `required`. An unreadable file is `NOT_FOUND`, malformed JSON `INVALID_DOCUMENT`.
 */
export async function readGitHubEvent(path: string | undefined, required: boolean): Promise<unknown> {
  if (path === undefined || path === '') {
    if (required) throw new CliDataError('NOT_FOUND', 'Missing GITHUB_EVENT_PATH');
    return undefined;
  }
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new CliDataError('NOT_FOUND', `cannot read GITHUB_EVENT_PATH ${path}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CliDataError('INVALID_DOCUMENT', `GITHUB_EVENT_PATH ${path} is not JSON: ${(error as Error).message}`);
  }
}
