// Why: one small, dependency-free argument parser with Sepo's conventions (`--flag value`,
// `--flag=value`, `-h`, `--` ends options, remaining positionals kept in order). Unlike
// node:util parseArgs it accepts option values that start with a dash (`--match "- foo"`),
// which bullet text often does, and it refuses a repeated option instead of keeping the last
// value (Sepo's parseArgs keeps the last, so `add ... note --dir=other` switched the target).
import { CliUsageError } from './errors.js';

/** How one option is spelled and whether it takes a value. */
export interface OptionSpec {
  /** `string` options take a value; `boolean` options are switches. */
  readonly type: 'string' | 'boolean';
  /** Optional one-letter alias, e.g. `h` for `-h`. */
  readonly short?: string;
  /** String options only: every occurrence is kept, in order (`--cite a --cite b`); read with {@link stringOptions}. */
  readonly multiple?: boolean;
  /** String options only: the value must be a positive integer (checked while parsing, see {@link parsePositiveInteger}). */
  readonly positiveInteger?: boolean;
}

/** The options a command accepts, keyed by long name (without `--`). */
export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

/** Result of {@link parseArguments}: option values by long name, and positionals in order. */
export interface ParsedArguments {
  /**
   * String options hold their value (given once), `multiple` options every value in order;
   * boolean options hold `true` when present.
   */
  readonly values: Readonly<Record<string, string | boolean | readonly string[] | undefined>>;
  /** Positional arguments in the order given (everything after `--` included verbatim). */
  readonly positionals: readonly string[];
  /**
   * The option names the parse accepted (not enumerable). Reading any other name with
   * {@link stringOption}, {@link stringOptions} or {@link booleanOption} is a programming error
   * (an option the command's declaration lacks) and throws, so a test of that path finds it.
   */
  readonly declared?: ReadonlySet<string>;
}

/**
 * Parse `argv` against `specs`. `multiple` options keep every value; any other string option
 * given twice is an error, so nothing later on the command line (bullet text that looks like an
 * option included) silently changes what an earlier option chose. Throws {@link CliUsageError}
 * for an unknown option, a repeated one, a missing value, or a value given to a switch.
 */
export function parseArguments(argv: readonly string[], specs: OptionSpecs): ParsedArguments {
  const values: Record<string, string | boolean | readonly string[] | undefined> = {};
  const setString = (name: string, spec: OptionSpec, value: string): void => {
    if (spec.positiveInteger === true) parsePositiveInteger(value, `--${name}`);
    const previous = values[name];
    if (spec.multiple === true) {
      values[name] = [...(Array.isArray(previous) ? previous : []), value];
      return;
    }
    // A second value never silently replaces the first: text that looks like an option
    // (`... note --dir=other`) must not switch the target the first one chose.
    if (typeof previous === 'string') {
      throw new CliUsageError(
        previous === value
          ? `option --${name} is given twice; give it once`
          : `option --${name} is given twice (${JSON.stringify(previous)}, then ${JSON.stringify(value)}); give it once (put text that starts with -- after a -- argument)`,
      );
    }
    values[name] = value;
  };
  const positionals: string[] = [];
  const shortNames = new Map<string, string>();
  for (const [name, spec] of Object.entries(specs)) {
    if (spec.short !== undefined) shortNames.set(spec.short, name);
  }
  const isKnownOption = (token: string): boolean => {
    if (token.startsWith('--')) {
      const name = token.slice(2).split('=', 1)[0] ?? '';
      return Object.hasOwn(specs, name);
    }
    return token.length === 2 && token.startsWith('-') && shortNames.has(token.slice(1));
  };

  for (let index = 0; index < argv.length; index += 1) {
    const token = argv[index] as string;
    if (token === '--') {
      positionals.push(...argv.slice(index + 1));
      break;
    }
    let name: string | undefined;
    let inlineValue: string | undefined;
    if (token.startsWith('--') && token.length > 2) {
      const equals = token.indexOf('=');
      name = equals === -1 ? token.slice(2) : token.slice(2, equals);
      inlineValue = equals === -1 ? undefined : token.slice(equals + 1);
      if (!Object.hasOwn(specs, name)) throw new CliUsageError(`unknown option: --${name}`);
    } else if (token.length === 2 && token.startsWith('-') && token !== '--' && /[A-Za-z]/.test(token[1] ?? '')) {
      name = shortNames.get(token.slice(1));
      if (name === undefined) throw new CliUsageError(`unknown option: ${token}`);
    } else {
      positionals.push(token);
      continue;
    }
    const spec = specs[name] as OptionSpec;
    if (spec.type === 'boolean') {
      if (inlineValue !== undefined) throw new CliUsageError(`option --${name} does not take a value`);
      values[name] = true;
      continue;
    }
    if (inlineValue !== undefined) {
      setString(name, spec, inlineValue);
      continue;
    }
    const next = argv[index + 1];
    // A value may start with a dash ("- foo"), but not be another known option or `--`.
    if (next === undefined || next === '--' || isKnownOption(next)) {
      throw new CliUsageError(`option --${name} requires a value`);
    }
    setString(name, spec, next);
    index += 1;
  }
  const parsed: ParsedArguments = { values, positionals };
  Object.defineProperty(parsed, 'declared', { value: new Set(Object.keys(specs)), enumerable: false });
  return parsed;
}

/** Throws when `name` is not an option the parse of `parsed` declared (see {@link ParsedArguments.declared}). */
function assertDeclared(parsed: ParsedArguments, name: string): void {
  if (parsed.declared !== undefined && !parsed.declared.has(name)) {
    throw new Error(`option --${name} is read but not declared in the command tree (src/tree/decl/)`);
  }
}

/** The string value of option `name`, or `undefined` when absent or empty. */
export function stringOption(parsed: ParsedArguments, name: string): string | undefined {
  assertDeclared(parsed, name);
  const value = parsed.values[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Every value of `multiple` option `name`, in order (empty when absent). */
export function stringOptions(parsed: ParsedArguments, name: string): readonly string[] {
  assertDeclared(parsed, name);
  const value = parsed.values[name];
  if (Array.isArray(value)) return value as readonly string[];
  return typeof value === 'string' ? [value] : [];
}

/** True when boolean option `name` was given. */
export function booleanOption(parsed: ParsedArguments, name: string): boolean {
  assertDeclared(parsed, name);
  return parsed.values[name] === true;
}

/**
 * Parse a positive integer option value (`--limit 5`). Throws {@link CliUsageError} naming the
 * option for anything else (`0`, `-1`, `1.5`, `5x`, ``).
 */
export function parsePositiveInteger(value: string, optionName: string): number {
  if (!/^\d+$/.test(value.trim())) {
    throw new CliUsageError(`${optionName} must be a positive integer (got ${JSON.stringify(value)})`);
  }
  const parsed = Number(value.trim());
  if (!Number.isSafeInteger(parsed) || parsed <= 0) {
    throw new CliUsageError(`${optionName} must be a positive integer (got ${JSON.stringify(value)})`);
  }
  return parsed;
}
