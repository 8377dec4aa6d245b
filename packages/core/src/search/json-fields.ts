// Why: mirror files are `gh --json` dumps whose bodies are long escaped strings. Searching them as
// raw lines gives unreadable snippets, so a small JSON scanner flattens a document into its leaf
// values with readable field paths (`comments[3].body`) and the file line each value sits on.

/** One scalar value of a JSON document. */
export interface JsonLeaf {
  /** Readable path of the field: `title`, `author.login`, `labels[0].name`, `[2].body`, `$` for a root scalar. */
  readonly field: string;
  /** The value as text: a string's decoded content, a number's literal, `true`/`false`. */
  readonly value: string;
  /** 1-based line of the file where the value starts. */
  readonly line: number;
}

const MAX_DEPTH = 512;
const IDENTIFIER = /^[A-Za-z_$][\w$-]*$/;
const CONTROL_CHARACTER = /[\u0000-\u001f]/;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

class InvalidJson extends Error {}

function objectField(parent: string, key: string): string {
  if (IDENTIFIER.test(key)) return parent === '' ? key : `${parent}.${key}`;
  return `${parent}[${JSON.stringify(key)}]`;
}

/**
 * Flatten a JSON text into its string, number and boolean leaves (nulls and empty containers
 * have none), in document order. Returns `undefined` when the text is not valid JSON.
 */
export function scanJsonLeaves(text: string): JsonLeaf[] | undefined {
  const leaves: JsonLeaf[] = [];
  const valid = visitJsonLeaves(text, true, (field, value, line) => {
    leaves.push({ field, value, line });
  });
  return valid ? leaves : undefined;
}

/** Receives one leaf of {@link visitJsonLeaves}: its field (`''` when fields are not tracked), value and line. */
export type JsonLeafVisitor = (field: string, value: string, line: number) => void;

/**
 * Visit the leaves {@link scanJsonLeaves} returns, in the same order, without collecting them;
 * with `withFields` false the field paths are not built (the visitor gets `''`). Returns false
 * when the text is not valid JSON (the visitor may have seen some leaves by then).
 */
export function visitJsonLeaves(text: string, withFields: boolean, visit: JsonLeafVisitor): boolean {
  const length = text.length;
  let index = 0;
  let line = 1;

  const skipWhitespace = (): void => {
    while (index < length) {
      const code = text.charCodeAt(index);
      if (code === 10) line++;
      else if (code !== 32 && code !== 9 && code !== 13) return;
      index++;
    }
  };

  const readString = (): string => {
    const start = index;
    let search = index + 1;
    let end = -1;
    while (end < 0) {
      const quote = text.indexOf('"', search);
      if (quote < 0) throw new InvalidJson();
      let backslashes = 0;
      for (let at = quote - 1; at > start && text.charCodeAt(at) === 92; at--) backslashes++;
      if (backslashes % 2 === 0) end = quote;
      else search = quote + 1;
    }
    index = end + 1;
    const inner = text.slice(start + 1, end);
    if (inner.includes('\\')) {
      try {
        return JSON.parse(text.slice(start, end + 1)) as string;
      } catch {
        throw new InvalidJson();
      }
    }
    if (CONTROL_CHARACTER.test(inner)) throw new InvalidJson();
    return inner;
  };

  const expect = (code: number): void => {
    skipWhitespace();
    if (text.charCodeAt(index) !== code) throw new InvalidJson();
    index++;
  };

  const readValue = (field: string, depth: number): void => {
    if (depth > MAX_DEPTH) throw new InvalidJson();
    skipWhitespace();
    const code = text.charCodeAt(index);
    if (code === 123 /* { */) {
      index++;
      skipWhitespace();
      if (text.charCodeAt(index) === 125) {
        index++;
        return;
      }
      for (;;) {
        skipWhitespace();
        if (text.charCodeAt(index) !== 34) throw new InvalidJson();
        const key = readString();
        expect(58 /* : */);
        readValue(withFields ? objectField(field, key) : '', depth + 1);
        skipWhitespace();
        const next = text.charCodeAt(index++);
        if (next === 125) return;
        if (next !== 44) throw new InvalidJson();
      }
    }
    if (code === 91 /* [ */) {
      index++;
      skipWhitespace();
      if (text.charCodeAt(index) === 93) {
        index++;
        return;
      }
      for (let item = 0; ; item++) {
        readValue(withFields ? `${field}[${item}]` : '', depth + 1);
        skipWhitespace();
        const next = text.charCodeAt(index++);
        if (next === 93) return;
        if (next !== 44) throw new InvalidJson();
      }
    }
    const at = line;
    const name = withFields && field === '' ? '$' : field;
    if (code === 34 /* " */) {
      const value = readString();
      if (value !== '') visit(name, value, at);
      return;
    }
    if (text.startsWith('true', index) || text.startsWith('false', index)) {
      const value = code === 116 ? 'true' : 'false';
      index += value.length;
      visit(name, value, at);
      return;
    }
    if (text.startsWith('null', index)) {
      index += 4;
      return;
    }
    NUMBER.lastIndex = index;
    const match = NUMBER.exec(text);
    if (match === null) throw new InvalidJson();
    index += match[0].length;
    visit(name, match[0], at);
  };

  try {
    readValue('', 0);
    skipWhitespace();
    if (index !== length) return false;
  } catch (error) {
    if (error instanceof InvalidJson || error instanceof RangeError) return false;
    throw error;
  }
  return true;
}
