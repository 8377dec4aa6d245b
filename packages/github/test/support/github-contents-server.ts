// Why: the GitHub citation reader is tested with the real @octokit/core against a loopback server
// that answers the contents API the way GitHub does (same JSON shape, base64 wrapped at 60
// characters, weak ETags honoured by If-None-Match, GitHub's error bodies), so the reader's
// parsing, caching and failure handling are exercised end to end without the network.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { similarity, unifiedPatch } from './unified-diff.js';

/** A failure the server answers with instead of the next matching request. */
export interface InjectedFailure {
  /** HTTP status (401, 403, 429, 500, 503...). */
  readonly status: number;
  /** Extra response headers (`retry-after`, `x-ratelimit-remaining`...). */
  readonly headers?: Readonly<Record<string, string>>;
  /** JSON body (default: GitHub's shape for the status). */
  readonly body?: unknown;
}

/** One request the server saw. */
export interface RecordedRequest {
  readonly method: string;
  /** Raw request URL (path and query, as sent: percent-encoding preserved). */
  readonly url: string;
  /** Decoded repository-relative path asked for (for a comparison: `base...head`). */
  path: string;
  /** `ref` query parameter, if any. */
  readonly ref: string | undefined;
  readonly ifNoneMatch: string | undefined;
  readonly authorization: string | undefined;
  /** Status answered. */
  status: number;
}

/** What the compare route answers as `status` (GitHub's ancestry of head against base). */
export type CompareStatus = 'ahead' | 'behind' | 'diverged' | 'identical';

/**
 * A loopback fake of `GET /repos/{owner}/{repo}/contents/{path}`, plus `GET /repos/{owner}/{repo}`
 * (the default branch), `GET /repos/{owner}/{repo}/compare/{base}...{head}` computed from the
 * files served at both refs (renames paired by similarity, patches with three lines of context),
 * and `GET /repos/{owner}/{repo}/commits/{ref}` for commits and branches pointed with `pointBranch`.
 */
export interface GitHubContentsServer {
  /** `http://127.0.0.1:<port>`, to pass as Octokit's `baseUrl`. */
  readonly baseUrl: string;
  /** Every request, in order. */
  readonly requests: RecordedRequest[];
  /** Replace the files of `repo` at `ref` (a branch, tag or commit sha). */
  setFiles(repo: string, ref: string, files: Readonly<Record<string, string | Uint8Array>>): void;
  /**
   * Make `branch` name `commit` (files set with `setFiles(repo, commit, ...)`): contents and
   * comparisons at `branch` serve that commit's files, and `GET /repos/{owner}/{repo}/commits/{ref}`
   * (with `Accept: application/vnd.github.sha`: the bare id; ETag honoured) answers `commit`.
   */
  pointBranch(repo: string, branch: string, commit: string): void;
  /** Branch served when no `ref` is given (default `main`). */
  setDefaultBranch(repo: string, ref: string): void;
  /** Answer the next `count` requests with `failure`. */
  failNext(failure: InjectedFailure, count?: number): void;
  /** Require `Authorization: token <token>` (or Bearer); others get 401 Bad credentials. */
  requireToken(token: string | undefined): void;
  /** Files above this size are answered like GitHub does above 1 MB: `encoding: "none"`, empty content. */
  setInlineLimit(bytes: number): void;
  /** Patches longer than this many characters are left out of comparisons, as GitHub does (default: none). */
  setPatchLimit(characters: number | undefined): void;
  /** Answer comparisons of `base...head` with this status (default `ahead`, or `identical` for equal files). */
  setCompareStatus(repo: string, base: string, head: string, status: CompareStatus | undefined): void;
  /** Stop listening. */
  close(): Promise<void>;
}

const DOCS = 'https://docs.github.com/rest/repos/contents#get-repository-content';

/** The git blob id of `content` (what GitHub returns as `sha`). */
export function gitBlobSha(content: Uint8Array): string {
  return createHash('sha1').update(`blob ${content.byteLength}\0`).update(content).digest('hex');
}

/** Base64 wrapped every 60 characters with a trailing newline, as GitHub sends it. */
function githubBase64(content: Uint8Array): string {
  const flat = Buffer.from(content).toString('base64');
  const lines: string[] = [];
  for (let at = 0; at < flat.length; at += 60) lines.push(flat.slice(at, at + 60));
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'x-github-media-type': 'github.v3; format=json',
    ...headers,
  });
  response.end(text);
}

function defaultErrorBody(status: number): unknown {
  if (status === 401)
    return { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' };
  if (status === 403)
    return { message: 'Resource not accessible by personal access token', documentation_url: DOCS, status: '403' };
  if (status === 429) return { message: 'API rate limit exceeded', documentation_url: DOCS, status: '429' };
  return { message: 'Server Error', status: String(status) };
}

/** Start the fake on 127.0.0.1 (random port). */
export async function startGitHubContentsServer(): Promise<GitHubContentsServer> {
  const repos = new Map<string, Map<string, Map<string, Buffer>>>();
  const defaultBranches = new Map<string, string>();
  const failures: InjectedFailure[] = [];
  const requests: RecordedRequest[] = [];
  let token: string | undefined;
  let inlineLimit = 1024 * 1024;
  let patchLimit: number | undefined;
  const compareStatuses = new Map<string, CompareStatus>();
  /** `repo\0branch` → the commit a pointed branch names. */
  const branchHeads = new Map<string, string>();
  let baseUrl = '';
  /** The files of `slug` at `ref`, through a pointed branch. */
  const filesAt = (slug: string, ref: string) => repos.get(slug)?.get(branchHeads.get(`${slug}\0${ref}`) ?? ref);

  const entryJson = (owner: string, repo: string, ref: string, path: string, content: Buffer | undefined) => {
    const name = path.slice(path.lastIndexOf('/') + 1);
    const sha =
      content === undefined ? createHash('sha1').update(`tree ${ref} ${path}`).digest('hex') : gitBlobSha(content);
    const url = `${baseUrl}/repos/${owner}/${repo}/contents/${encodePath(path)}?ref=${encodeURIComponent(ref)}`;
    const gitUrl = `${baseUrl}/repos/${owner}/${repo}/git/${content === undefined ? 'trees' : 'blobs'}/${sha}`;
    const htmlUrl = `https://github.com/${owner}/${repo}/${content === undefined ? 'tree' : 'blob'}/${ref}/${encodePath(path)}`;
    return {
      name,
      path,
      sha,
      size: content?.byteLength ?? 0,
      url,
      html_url: htmlUrl,
      git_url: gitUrl,
      download_url:
        content === undefined ? null : `https://raw.githubusercontent.com/${owner}/${repo}/${ref}/${encodePath(path)}`,
      type: content === undefined ? 'dir' : 'file',
      _links: { self: url, git: gitUrl, html: htmlUrl },
    };
  };

  const commitSha = (ref: string) =>
    /^[0-9a-f]{40}$/.test(ref) ? ref : createHash('sha1').update(`commit ${ref}`).digest('hex');

  /** The compare API's answer for `base...head` from the files served at both refs. */
  const compareJson = (
    slug: string,
    base: string,
    head: string,
    before: Map<string, Buffer>,
    after: Map<string, Buffer>,
  ) => {
    const text = (content: Buffer) => content.toString('utf8');
    const files: Record<string, unknown>[] = [];
    const entry = (filename: string, status: string, beforeText: string, afterText: string, extra = {}) => {
      const { patch, changes } = unifiedPatch(beforeText, afterText);
      const additions = patch.split('\n').filter((line) => line.startsWith('+')).length;
      const deletions = patch.split('\n').filter((line) => line.startsWith('-')).length;
      const withPatch = patch !== '' && (patchLimit === undefined || patch.length <= patchLimit);
      return {
        sha: gitBlobSha(Buffer.from(afterText, 'utf8')),
        filename,
        status,
        additions,
        deletions,
        changes: changes === 0 ? 0 : additions + deletions,
        blob_url: `https://github.com/${slug}/blob/${head}/${encodePath(filename)}`,
        raw_url: `https://github.com/${slug}/raw/${head}/${encodePath(filename)}`,
        contents_url: `${baseUrl}/repos/${slug}/contents/${encodePath(filename)}?ref=${head}`,
        ...extra,
        ...(withPatch ? { patch } : {}),
      };
    };
    const removed = [...before.keys()].filter((path) => !after.has(path)).sort();
    const added = new Set([...after.keys()].filter((path) => !before.has(path)));
    const renamedTo = new Map<string, string>();
    for (const path of removed) {
      let best: { path: string; score: number } | undefined;
      for (const candidate of added) {
        const score = similarity(text(before.get(path) as Buffer), text(after.get(candidate) as Buffer));
        if (score >= 0.5 && (best === undefined || score > best.score)) best = { path: candidate, score };
      }
      if (best !== undefined) {
        renamedTo.set(path, best.path);
        added.delete(best.path);
      }
    }
    for (const [path, content] of [...after].sort(([a], [b]) => a.localeCompare(b))) {
      const previous = before.get(path);
      if (previous !== undefined) {
        if (!previous.equals(content)) files.push(entry(path, 'modified', text(previous), text(content)));
      } else if (added.has(path)) {
        files.push(entry(path, 'added', '', text(content)));
      }
    }
    for (const path of removed) {
      const to = renamedTo.get(path);
      if (to === undefined) files.push(entry(path, 'removed', text(before.get(path) as Buffer), ''));
      else {
        files.push(
          entry(to, 'renamed', text(before.get(path) as Buffer), text(after.get(to) as Buffer), {
            previous_filename: path,
          }),
        );
      }
    }
    const status = compareStatuses.get(`${slug}\0${base}\0${head}`) ?? (files.length === 0 ? 'identical' : 'ahead');
    const baseCommit = { sha: commitSha(base), commit: { message: `commit ${base}` } };
    const mergeBase =
      status === 'ahead' || status === 'identical' ? baseCommit : { sha: commitSha(`merge-base ${base} ${head}`) };
    return {
      url: `${baseUrl}/repos/${slug}/compare/${base}...${head}`,
      html_url: `https://github.com/${slug}/compare/${base}...${head}`,
      base_commit: baseCommit,
      merge_base_commit: mergeBase,
      status,
      ahead_by: status === 'behind' || status === 'identical' ? 0 : 1,
      behind_by: status === 'behind' || status === 'diverged' ? 1 : 0,
      total_commits: status === 'identical' ? 0 : 1,
      commits: [],
      files,
    };
  };

  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const match = /^\/repos\/([^/]+)\/([^/]+)\/contents\/(.*)$/.exec(url.pathname);
    const compareMatch = /^\/repos\/([^/]+)\/([^/]+)\/compare\/([^/]+)$/.exec(url.pathname);
    const repoMatch = /^\/repos\/([^/]+)\/([^/]+)\/?$/.exec(url.pathname);
    const commitMatch = /^\/repos\/([^/]+)\/([^/]+)\/commits\/(.+)$/.exec(url.pathname);
    const path = match?.[3] === undefined ? '' : match[3].split('/').map(decodeURIComponent).join('/');
    const ref = url.searchParams.get('ref') ?? undefined;
    const header = (name: string) => {
      const value = request.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const record: RecordedRequest = {
      method: request.method ?? 'GET',
      url: request.url ?? '/',
      path,
      ref,
      ifNoneMatch: header('if-none-match'),
      authorization: header('authorization'),
      status: 0,
    };
    requests.push(record);
    const reply = (status: number, body: unknown, headers?: Record<string, string>) => {
      record.status = status;
      send(response, status, body, headers);
    };
    const failure = failures.shift();
    if (failure !== undefined) {
      reply(failure.status, failure.body ?? defaultErrorBody(failure.status), { ...failure.headers });
      return;
    }
    if (
      token !== undefined &&
      record.authorization !== `token ${token}` &&
      record.authorization !== `bearer ${token}`
    ) {
      reply(401, defaultErrorBody(401));
      return;
    }
    if (request.method === 'GET' && repoMatch !== null) {
      const slug = `${repoMatch[1]}/${repoMatch[2]}`;
      if (!repos.has(slug)) {
        reply(404, {
          message: 'Not Found',
          documentation_url: 'https://docs.github.com/rest/repos/repos#get-a-repository',
          status: '404',
        });
        return;
      }
      reply(200, {
        full_name: slug,
        name: repoMatch[2],
        default_branch: defaultBranches.get(slug) ?? 'main',
        private: false,
      });
      return;
    }
    if (request.method === 'GET' && commitMatch !== null) {
      const slug = `${commitMatch[1]}/${commitMatch[2]}`;
      const asked = decodeURIComponent(commitMatch[3] as string);
      record.path = asked;
      const refs = repos.get(slug);
      const pointed = branchHeads.get(`${slug}\0${asked}`);
      const prefixed = /^[0-9a-f]{7,40}$/.test(asked)
        ? [...(refs?.keys() ?? [])].filter((key) => /^[0-9a-f]{40}$/.test(key) && key.startsWith(asked))
        : [];
      const commit = pointed ?? (prefixed.length === 1 ? prefixed[0] : undefined);
      if (refs === undefined || commit === undefined) {
        reply(422, {
          message: `No commit found for SHA: ${asked}`,
          documentation_url: 'https://docs.github.com/rest/commits/commits#get-a-commit',
          status: '422',
        });
        return;
      }
      const etag = `"${commit}"`;
      if (record.ifNoneMatch === etag) {
        record.status = 304;
        response.writeHead(304, { etag });
        response.end();
        return;
      }
      if (header('accept') === 'application/vnd.github.sha') {
        record.status = 200;
        response.writeHead(200, { 'content-type': 'application/vnd.github.sha; charset=utf-8', etag });
        response.end(commit);
        return;
      }
      reply(200, { sha: commit, url: `${baseUrl}/repos/${slug}/commits/${commit}` }, { etag });
      return;
    }
    if (request.method === 'GET' && compareMatch !== null) {
      const slug = `${compareMatch[1]}/${compareMatch[2]}`;
      const compareDocs = 'https://docs.github.com/rest/commits/commits#compare-two-commits';
      let basehead: string;
      try {
        basehead = decodeURIComponent(compareMatch[3] as string);
      } catch {
        reply(404, { message: 'Not Found', documentation_url: compareDocs, status: '404' });
        return;
      }
      record.path = basehead;
      const refs = repos.get(slug);
      const sides = /^([^.\s]+(?:\.[^.\s]+)*)\.\.\.([^.\s]+(?:\.[^.\s]+)*)$/.exec(basehead);
      // Like GitHub, an abbreviated commit id (7 hex digits or more) names the one commit it starts.
      const resolveRef = (ref: string) => {
        if (refs === undefined || refs.has(ref) || !/^[0-9a-f]{7,39}$/.test(ref)) return ref;
        const matches = [...refs.keys()].filter((key) => /^[0-9a-f]{40}$/.test(key) && key.startsWith(ref));
        return matches.length === 1 ? (matches[0] as string) : ref;
      };
      const baseRef = sides === null ? '' : resolveRef(sides[1] as string);
      const headRef = sides === null ? '' : resolveRef(sides[2] as string);
      const before = sides === null ? undefined : filesAt(slug, baseRef);
      const after = sides === null ? undefined : filesAt(slug, headRef);
      if (sides === null || before === undefined || after === undefined) {
        reply(404, { message: 'Not Found', documentation_url: compareDocs, status: '404' });
        return;
      }
      const body = compareJson(slug, baseRef, headRef, before, after);
      const etag = `W/"${createHash('sha256').update(JSON.stringify(body)).digest('hex')}"`;
      if (record.ifNoneMatch === etag) {
        record.status = 304;
        response.writeHead(304, { etag });
        response.end();
        return;
      }
      reply(200, body, { etag });
      return;
    }
    if (match === null || request.method !== 'GET') {
      reply(404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' });
      return;
    }
    const [, owner = '', repo = ''] = match;
    const slug = `${owner}/${repo}`;
    const refs = repos.get(slug);
    if (refs === undefined) {
      reply(404, { message: 'Not Found', documentation_url: DOCS, status: '404' });
      return;
    }
    const effectiveRef = ref ?? defaultBranches.get(slug) ?? 'main';
    const files = filesAt(slug, effectiveRef);
    if (files === undefined) {
      reply(404, { message: `No commit found for the ref ${effectiveRef}`, documentation_url: DOCS, status: '404' });
      return;
    }
    const content = files.get(path);
    let body: unknown;
    if (content !== undefined) {
      const inline = content.byteLength <= inlineLimit;
      body = {
        ...entryJson(owner, repo, effectiveRef, path, content),
        content: inline ? githubBase64(content) : '',
        encoding: inline ? 'base64' : 'none',
      };
    } else {
      const prefix = path === '' ? '' : `${path}/`;
      const children = new Map<string, Buffer | undefined>();
      for (const [filePath, fileContent] of files) {
        if (!filePath.startsWith(prefix)) continue;
        const rest = filePath.slice(prefix.length);
        const slash = rest.indexOf('/');
        if (slash < 0) children.set(filePath, fileContent);
        else children.set(prefix + rest.slice(0, slash), undefined);
      }
      if (children.size === 0) {
        reply(404, { message: 'Not Found', documentation_url: DOCS, status: '404' });
        return;
      }
      body = [...children].map(([childPath, childContent]) =>
        entryJson(owner, repo, effectiveRef, childPath, childContent),
      );
    }
    const etag = `W/"${createHash('sha256').update(JSON.stringify(body)).digest('hex')}"`;
    if (record.ifNoneMatch === etag) {
      record.status = 304;
      response.writeHead(304, { etag });
      response.end();
      return;
    }
    reply(200, body, { etag, 'cache-control': 'private, max-age=60, s-maxage=60' });
  };

  const server: Server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl,
    requests,
    setFiles(repo, ref, files) {
      const refs = repos.get(repo) ?? new Map<string, Map<string, Buffer>>();
      repos.set(repo, refs);
      refs.set(
        ref,
        new Map(
          Object.entries(files).map(([path, content]) => [
            path,
            typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content),
          ]),
        ),
      );
    },
    pointBranch(repo, branch, commit) {
      branchHeads.set(`${repo}\0${branch}`, commit);
    },
    setDefaultBranch(repo, ref) {
      defaultBranches.set(repo, ref);
    },
    failNext(failure, count = 1) {
      for (let index = 0; index < count; index += 1) failures.push(failure);
    },
    requireToken(value) {
      token = value;
    },
    setInlineLimit(bytes) {
      inlineLimit = bytes;
    },
    setPatchLimit(characters) {
      patchLimit = characters;
    },
    setCompareStatus(repo, base, head, status) {
      const key = `${repo}\0${base}\0${head}`;
      if (status === undefined) compareStatuses.delete(key);
      else compareStatuses.set(key, status);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
