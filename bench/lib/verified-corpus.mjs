// Why: the verified-memory benchmark needs seed 003's scale (100,000 memories across 100
// repositories) generated identically every run: records whose citations point at real lines of
// the citation repository (with snippet hashes, as `store` writes them), varied text drawn from a
// Zipf vocabulary of a few thousand words, realistic status and age mixes, store inputs citing
// the current code, and search queries taken from live memories so they have answers.
import { snippetHash } from '@repomem/core';
import { createSeededRandom } from '@repomem/core/testing';
import { buildVocabulary, zipfPicker } from './vocabulary.mjs';

/** The benchmark's "now": generated ages are relative to it and the service clock starts at it. */
export const BENCH_NOW = Date.UTC(2026, 2, 1);
const DAY = 86_400_000;
const MAX_AGE_DAYS = 28;
const AGENTS = ['coding-agent', 'review-agent', 'triage-agent'];
const SCOPES = ['src/api/', 'src/client/', 'src/server/', 'packages/core/src/', 'test/'];

/** Repository slug number `index` (`org-007/app`). */
export const repoName = (index) => `org-${String(index).padStart(3, '0')}/app`;

const uuid = (serial) => `00000000-0000-4000-8000-${serial.toString(16).padStart(12, '0')}`;

function linesOf(content) {
  return content.slice(0, -1).split('\n');
}

/**
 * A deterministic generator of memories over a source tree from `generateSourceTree`.
 * `record(repo)` gives a stored record (citing the first commit, with snippet hashes);
 * `storeInput(repo)` gives what an agent passes to `store` (citing HEAD, no hashes);
 * `queryFor(record)` two words of its fact.
 */
export function createMemoryGenerator({ tree, seed = 'repomem-verified', vocabularySize = 3000 }) {
  const random = createSeededRandom(seed);
  const words = buildVocabulary(random, vocabularySize);
  const word = zipfPicker(random, words, 1);
  const sentence = (min, max) => Array.from({ length: random.int(min, max) }, word).join(' ');
  const cited = tree.before.map((file) => ({ path: file.path, lines: linesOf(file.content) }));
  const current = [...tree.after].map(([path, content]) => ({ path, lines: linesOf(content) }));
  const vocabulary = new Set(words);
  let serial = 0;

  const citation = (files, withHash) => {
    const file = random.pick(files);
    const span = random.int(0, 5);
    let start = 1;
    for (let attempt = 0; attempt < 6; attempt++) {
      start = random.int(1, file.lines.length - span);
      const first = file.lines[start - 1];
      if (first !== '' && first !== '}') break;
    }
    const end = start + span;
    const base = { path: file.path, line_start: start, line_end: end };
    return withHash ? { ...base, snippet_hash: snippetHash(file.lines.slice(start - 1, end).join('\n')) } : base;
  };
  const citations = (files, withHash) => {
    const list = [];
    const count = random.int(1, 3);
    while (list.length < count) {
      const next = citation(files, withHash);
      if (!list.some((c) => c.path === next.path && c.line_start === next.line_start)) list.push(next);
    }
    return list;
  };
  const fact = () => {
    const text = sentence(12, 28);
    return random.next() < 0.3 ? `${text}; see ${random.pick(cited).path}.` : `${text}.`;
  };

  return {
    words,
    record(repo) {
      serial += 1;
      const created = BENCH_NOW - Math.floor(random.next() * 60 * DAY);
      const refreshed = Math.min(BENCH_NOW, created + Math.floor(random.next() * 10 * DAY));
      const roll = random.next();
      const status = roll < 0.8 ? 'active' : roll < 0.9 ? 'invalid' : 'superseded';
      return {
        id: uuid(serial),
        repo,
        subject: sentence(3, 5),
        fact: fact(),
        scope: random.next() < 0.15 ? random.pick(SCOPES) : null,
        citations: citations(cited, true),
        reason: random.next() < 0.5 ? sentence(6, 12) : null,
        created_by: random.pick(AGENTS),
        created_at: new Date(created).toISOString(),
        refreshed_at: new Date(refreshed).toISOString(),
        expires_at: new Date(refreshed + MAX_AGE_DAYS * DAY).toISOString(),
        status,
        superseded_by: status === 'superseded' ? uuid(serial + 1) : null,
        supersedes: null,
        invalid_reason: status === 'invalid' ? 'a cited snippet is no longer in the file' : null,
        verification_count: random.int(0, 6),
        revision: 1,
      };
    },
    storeInput(repo) {
      return {
        repo,
        subject: sentence(3, 5),
        fact: fact(),
        citations: citations(current, false),
        reason: sentence(6, 12),
        created_by: random.pick(AGENTS),
      };
    },
    queryFor(record) {
      const terms = [...new Set(record.fact.split(/[\s;.]+/))].filter((term) => vocabulary.has(term));
      const first = random.pick(terms);
      const rest = terms.filter((term) => term !== first);
      return rest.length === 0 ? first : `${first} ${random.pick(rest)}`;
    },
  };
}

/** True when `record` is what `getRecent`/`search` may return at `at` (ms): active and unexpired. */
export function isLive(record, at) {
  return record.status === 'active' && Date.parse(record.expires_at) > at;
}

/** A `created` telemetry event for a loaded record (what `store` would have written). */
export function createdEvent(record) {
  return { type: 'created', memory_id: record.id, repo: record.repo, at: record.created_at };
}
