// Why: the typed argument object of a command comes from its declaration: options parsed with
// the declaration's table (unknown options, missing values and non-integers refused with the
// CLI's usage errors), the subcommand checked against the declared ones, options that do not
// apply to it refused, and values converted to their declared types with their defaults.
import { type ParsedArguments, parseArguments } from '../args.js';
import { CliUsageError } from '../errors.js';
import { optionSpecsOf } from './help.js';
import type { ArgsOf, CommandDecl, OptionDecls, OptionValues, SubcommandDecl } from './types.js';

/** `read-only` -> `readOnly`. */
export function camelCase(name: string): string {
  return name.replace(/-([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

/** "a, b or c". */
function listed(names: readonly string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

/** Parse with the declaration's option table (no subcommand or type checks beyond the parser's). */
export function parseDeclared(decl: Pick<CommandDecl, 'options'>, argv: readonly string[]): ParsedArguments {
  return parseArguments(argv, optionSpecsOf(decl));
}

/** The declared subcommand `name`, or a usage error naming the expected ones. */
export function subcommandOf(decl: CommandDecl, name: string | undefined): SubcommandDecl {
  const subcommands = decl.subcommands ?? [];
  const names = subcommands.map((sub) => sub.name);
  if (name === undefined) throw new CliUsageError(`missing ${decl.name} subcommand: ${listed(names)}`);
  const found = subcommands.find((sub) => sub.name === name);
  if (found === undefined)
    throw new CliUsageError(`unknown ${decl.name} subcommand: ${name} (expected ${listed(names)})`);
  return found;
}

/** How {@link parseCommand} treats the subcommand and the positionals after it. */
export interface ParseCommandOptions {
  /**
   * `own`: the command reports a missing or unknown subcommand itself, with the messages it had
   * before the tree (`prefs needs a subcommand (set, list)`): `subcommand` is then the first
   * positional as given (or `undefined`); and it checks the positionals after it itself
   * (`unexpected argument for memories recent: x`). Options that do not apply to a declared
   * subcommand are still refused here.
   * Default `declared`: refused here (`missing <command> subcommand: ...`).
   */
  readonly subcommand?: 'declared' | 'own';
  /**
   * `own`: the command checks its positionals itself (`unexpected argument for init: m (use
   * --dir <path>)`); implied by `subcommand: 'own'`. Default `declared`: more than the declared
   * ones are refused here (`unexpected argument: m`).
   */
  readonly positionals?: 'declared' | 'own';
}

/**
 * Parse `argv` (the arguments after the command name) into the command's typed arguments.
 * Throws {@link CliUsageError} for an unknown option, a repeated one, a missing value, a value
 * that is not a positive integer where one is declared, a missing or unknown subcommand, an
 * option that does not apply to the subcommand, or an unexpected positional. `--help` is not
 * handled here: the CLI's entry prints the help before the command is loaded.
 */
export function parseCommand<O extends OptionDecls>(
  decl: CommandDecl<O>,
  argv: readonly string[],
  how: ParseCommandOptions = {},
): ArgsOf<O> {
  const parsed = parseDeclared(decl, argv);
  let positionals = parsed.positionals;
  let subcommand: SubcommandDecl | undefined;
  if (decl.subcommands !== undefined) {
    const first = positionals[0];
    if (how.subcommand === 'own' && !decl.subcommands.some((sub) => sub.name === first)) {
      return {
        options: optionValues(decl, parsed),
        subcommand: first,
        positionals: positionals.slice(1),
        given: givenOf(parsed),
      };
    }
    subcommand = subcommandOf(decl as CommandDecl, first);
    positionals = positionals.slice(1);
    if (subcommand.options !== undefined) {
      const allowed = new Set<string>(['help', ...(decl.common ?? []), ...subcommand.options]);
      for (const [name, value] of Object.entries(parsed.values)) {
        if (value !== undefined && !allowed.has(name)) {
          throw new CliUsageError(`option --${name} does not apply to ${decl.name} ${subcommand.name}`);
        }
      }
    }
  }
  const declaredPositionals = subcommand?.positionals ?? decl.positionals ?? [];
  if (
    how.subcommand !== 'own' &&
    how.positionals !== 'own' &&
    !declaredPositionals.some((positional) => positional.variadic === true) &&
    positionals.length > declaredPositionals.length
  ) {
    throw new CliUsageError(`unexpected argument: ${positionals[declaredPositionals.length]}`);
  }
  return { options: optionValues(decl, parsed), subcommand: subcommand?.name, positionals, given: givenOf(parsed) };
}

/** The options on the command line. */
function givenOf(parsed: ParsedArguments): ReadonlySet<string> {
  return new Set(Object.keys(parsed.values).filter((name) => parsed.values[name] !== undefined));
}

/** The declared options of `parsed`, typed: camelCase keys, integers converted, defaults filled in. */
function optionValues<O extends OptionDecls>(decl: CommandDecl<O>, parsed: ParsedArguments): OptionValues<O> {
  const options: Record<string, unknown> = {};
  for (const [name, option] of Object.entries(decl.options)) {
    const raw = parsed.values[name];
    const key = camelCase(name);
    if (option.type === 'boolean') options[key] = raw === true;
    else if (option.multiple === true) options[key] = Array.isArray(raw) ? raw : [];
    else if (typeof raw === 'string' && raw !== '') options[key] = option.type === 'integer' ? Number(raw.trim()) : raw;
    else options[key] = option.default;
  }
  return options as OptionValues<O>;
}
