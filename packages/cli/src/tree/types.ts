// Why: the shape of a command's ONE declaration (name, subcommands, positionals, options with
// types and descriptions, examples, and how to load its implementation). The parser's option
// table, the help text, the typed argument object and the shell completion scripts are all
// derived from it (see help.ts, parse-command.ts, completion.ts), so they cannot disagree.
// Types only, plus `defineCommand` (an identity that keeps literal types): importing this
// module costs nothing at start-up.
import type { CliIo } from '../io.js';

/** How a command runs once its arguments are known: returns the exit code, never throws. */
export type CommandRunner = (argv: readonly string[], io: CliIo) => Promise<number>;

/** What a shell offers for an option's value or a positional argument. */
export type CompletionKind = 'file' | 'directory' | 'none';

/** One option, keyed by its long name (without `--`) in {@link CommandDecl.options}. */
export interface OptionDecl {
  /**
   * `string` takes a value; `integer` takes a positive integer (checked while parsing, with the
   * message `--x must be a positive integer (got "...")`); `boolean` is a switch.
   */
  readonly type: 'string' | 'integer' | 'boolean';
  /** What the option does, as shown by `--help` (one sentence or two; wrapped when printed). */
  readonly description: string;
  /** Placeholder of the value in help (`--limit <n>`); default `value`. */
  readonly value?: string;
  /** One-letter alias (`m` for `-m`). */
  readonly short?: string;
  /** String options: every occurrence is kept in order (`--cite a --cite b`). */
  readonly multiple?: boolean;
  /** The value used when the option is absent (typed arguments; shown by help when the description does not say it). */
  readonly default?: string | number;
  /** The values a shell offers for completion (the command may accept others, e.g. `thread:<key>`). */
  readonly choices?: readonly string[];
  /** What a shell offers for the value when there are no choices (default `none`). */
  readonly complete?: CompletionKind;
}

/** The options of a command, keyed by long name. */
export type OptionDecls = Readonly<Record<string, OptionDecl>>;

/** One positional argument. */
export interface PositionalDecl {
  /** Name shown in help (`query`, `path`, `rule-id`). */
  readonly name: string;
  readonly description: string;
  /** Every remaining positional belongs to it (`<query...>`). */
  readonly variadic?: boolean;
  /** Values a shell offers. */
  readonly choices?: readonly string[];
  /** What a shell offers when there are no choices (default `none`). */
  readonly complete?: CompletionKind;
}

/** A subcommand: the first positional after the command (`update add`, `memories verify`). */
export interface SubcommandDecl {
  readonly name: string;
  /** One line for help and completion. */
  readonly summary: string;
  /** Its argument forms, shown under `Subcommands:` (e.g. `--file <MEMORY.md|PROJECT.md> --section <name> <bullet>`). */
  readonly usage?: string;
  /**
   * The command's options it accepts besides {@link CommandDecl.common}; absent: all of them.
   * The parser refuses any other (`option --x does not apply to <command> <sub>`).
   */
  readonly options?: readonly string[];
  /** Its positionals after the subcommand name; absent: the command's {@link CommandDecl.positionals}. */
  readonly positionals?: readonly PositionalDecl[];
}

/** One example: a command line (without the leading `repomem`) and what it does. */
export interface ExampleDecl {
  readonly command: string;
  readonly description: string;
}

/** A titled block of help text after the options (Environment, Exit codes...). */
export interface HelpSection {
  readonly title: string;
  readonly body: string;
}

/** A command, declared once. */
export interface CommandDecl<O extends OptionDecls = OptionDecls> {
  readonly name: string;
  /** The argument forms after `repomem <name>`, one per line (the first after `Usage:`). */
  readonly usage: readonly string[];
  /** What the command does (paragraphs, printed as given). */
  readonly description?: string;
  readonly subcommands?: readonly SubcommandDecl[];
  /** Positionals (after the subcommand, when there is one and it declares none of its own). */
  readonly positionals?: readonly PositionalDecl[];
  /** Options, in the order help lists them. `--help`/`-h` is added to every command. */
  readonly options: O;
  /** Options every subcommand accepts (only with {@link SubcommandDecl.options}). */
  readonly common?: readonly string[];
  /** Extra help blocks after the options. */
  readonly sections?: readonly HelpSection[];
  readonly examples: readonly ExampleDecl[];
  /** A Sepo drop-in command: its argument forms are Sepo's and must stay exact. */
  readonly sepo?: boolean;
  /** Loads the implementation (a dynamic import, so `--help` and other commands never load it). */
  readonly load: () => Promise<CommandRunner>;
}

/** Keep a declaration's literal types (option names and types) for {@link ArgsOf}. */
export function defineCommand<const O extends OptionDecls>(decl: CommandDecl<O>): CommandDecl<O> {
  return decl;
}

type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;

/** The value type of one declared option. */
export type OptionValue<D extends OptionDecl> = D['type'] extends 'boolean'
  ? boolean
  : D['multiple'] extends true
    ? readonly string[]
    : D['type'] extends 'integer'
      ? D['default'] extends number
        ? number
        : number | undefined
      : D['default'] extends string
        ? string
        : string | undefined;

/** The typed options of a command: camelCase keys (`read-only` is `readOnly`). */
export type OptionValues<O extends OptionDecls> = {
  readonly [K in keyof O & string as CamelCase<K>]: OptionValue<O[K]>;
};

/** What a command receives: its typed options, the subcommand (when it has some) and the positionals after it. */
export interface ArgsOf<O extends OptionDecls> {
  readonly options: OptionValues<O>;
  readonly subcommand: string | undefined;
  readonly positionals: readonly string[];
  /** The long names of the options given on the command line, an empty value (`--x ""`) included. */
  readonly given: ReadonlySet<string>;
}
