// Why: the naive baseline that benchmarks compare against, written from the description of
// Sepo's memory/search.js in reference/sepo-memory.md: walk the tree, re-read every file on
// every query, score by substring counts (path hits x6, line hits by token length, phrase bonus).
// It is a baseline for timing, not a reference for ranking quality.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

const SKIP = new Set(['.git', 'node_modules', '.hg', '.svn']);
const MAX_BYTES = 512 * 1024;

/** Tokenise like Sepo: lowercase, split on non-alphanumerics, keep len >= 2 or digits, dedupe. */
export function naiveTokens(query) {
  const tokens = [
    ...new Set(
      query
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter((t) => t.length >= 2 || /^\d+$/.test(t)),
    ),
  ];
  if (tokens.length === 0 && query.trim().length >= 2) tokens.push(query.trim().toLowerCase());
  return tokens;
}

function walk(dir, out) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name) || entry.isSymbolicLink()) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

/** Search `root` for `query`, re-reading every file. Returns the top `limit` hits. */
export function naiveSearch(root, query, limit = 5, snippets = 3) {
  const tokens = naiveTokens(query);
  const phrase = query.trim().toLowerCase();
  const files = walk(root, []);
  const results = [];
  for (const file of files) {
    if (statSync(file).size > MAX_BYTES) continue;
    const buffer = readFileSync(file);
    if (buffer.subarray(0, 8000).includes(0)) continue;
    const path = relative(root, file);
    const lowerPath = path.toLowerCase();
    let score = 0;
    const matched = new Set();
    for (const t of tokens) {
      if (lowerPath.includes(t)) {
        score += 6;
        matched.add(t);
      }
    }
    const lines = buffer.toString('utf8').split('\n');
    const lineHits = [];
    for (let i = 0; i < lines.length; i++) {
      const lower = lines[i].toLowerCase();
      let lineScore = 0;
      for (const t of tokens) {
        if (lower.includes(t)) {
          lineScore += t.length;
          matched.add(t);
        }
      }
      if (tokens.length > 1 && lower.includes(phrase)) lineScore += phrase.length;
      if (lineScore > 0) lineHits.push({ lineNumber: i + 1, text: lines[i].trim().slice(0, 220), score: lineScore });
    }
    if (matched.size === 0) continue;
    score += lineHits.reduce((s, h) => s + h.score, 0);
    lineHits.sort((a, b) => b.score - a.score || a.lineNumber - b.lineNumber);
    results.push({ path, score, matchCount: matched.size, snippets: lineHits.slice(0, snippets) });
  }
  results.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path));
  return { documentCount: files.length, results: results.slice(0, limit) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [root, ...q] = process.argv.slice(2);
  const r = naiveSearch(root, q.join(' '));
  process.stdout.write(`${r.results.length} results over ${r.documentCount} files\n`);
}
