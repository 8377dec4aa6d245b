// Why: generated benchmark text must behave like real text under a full-text index: a few
// thousand distinct words with a Zipf-like frequency (a few common, most rare), so query terms
// are selective. Every function takes core's seeded random (`createSeededRandom` from
// `@repomem/core/testing`), so every run generates exactly the same words and picks.

/** Real words of coding-agent memories; they take the most frequent ranks of the vocabulary. */
const TECHNICAL_WORDS = (
  'api version client server route schema migration test vitest jest build lint format deploy release ' +
  'cache retry timeout token auth session database index query config env secret log metric trace queue ' +
  'worker job cron hook plugin module package workspace monorepo bundle chunk import export type interface ' +
  'error handler middleware controller service repository model view component state store reducer context ' +
  'branch commit merge rebase review comment workflow action runner matrix artifact coverage snapshot fixture ' +
  'mock stub spy assert expect describe suite benchmark profile memory thread lock mutex channel stream buffer ' +
  'parser lexer token ast compiler transpile target polyfill runtime node deno browser dom event listener ' +
  'request response header cookie cors csrf oauth jwt rate limit quota throttle backoff idempotent webhook ' +
  'pagination cursor offset sort filter search ranking embedding vector prompt agent tool sandbox container ' +
  'docker image registry helm cluster pod secret vault rotate certificate tls dns proxy gateway ingress'
).split(' ');

const ONSETS = ['b', 'br', 'c', 'ch', 'd', 'dr', 'f', 'fl', 'g', 'gr', 'h', 'j', 'k', 'kl', 'l', 'm', 'n', 'p'];
const MORE_ONSETS = ['pl', 'qu', 'r', 's', 'sh', 'sk', 'sl', 'st', 't', 'th', 'tr', 'v', 'w', 'z'];
const NUCLEI = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'oo', 'ou', 'y'];
const CODAS = ['', '', 'n', 'r', 'l', 'st', 'x', 'nd', 'ck', 'm'];

/**
 * `size` distinct lowercase words: the technical words first, then pronounceable generated words
 * of two or three syllables. Deterministic for a given seeded `random`.
 */
export function buildVocabulary(random, size) {
  const onsets = [...ONSETS, ...MORE_ONSETS];
  const words = [];
  const seen = new Set();
  const add = (word) => {
    if (seen.has(word) || words.length >= size) return;
    seen.add(word);
    words.push(word);
  };
  for (const word of TECHNICAL_WORDS) add(word);
  while (words.length < size) {
    const syllables = random.int(2, 3);
    let word = '';
    for (let s = 0; s < syllables; s++) {
      word += random.pick(onsets) + random.pick(NUCLEI) + (s === syllables - 1 ? random.pick(CODAS) : '');
    }
    add(word);
  }
  return words;
}

/**
 * A picker drawing words with probability proportional to 1 / rank^exponent (Zipf), so the first
 * words are common and the long tail is rare.
 */
export function zipfPicker(random, words, exponent = 1) {
  const cumulative = new Float64Array(words.length);
  let total = 0;
  for (let rank = 0; rank < words.length; rank++) {
    total += 1 / (rank + 1) ** exponent;
    cumulative[rank] = total;
  }
  return () => {
    const target = random.next() * total;
    let low = 0;
    let high = words.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (cumulative[middle] < target) low = middle + 1;
      else high = middle;
    }
    return words[low];
  };
}
