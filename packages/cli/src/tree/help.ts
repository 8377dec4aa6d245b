// Why: `repomem <command> --help`, `repomem help <command>` and the usage printed after an
// argument error are rendered from the command's declaration (its forms, subcommands, options,
// extra sections and examples), so help lists exactly the options the parser accepts.
import { type OptionSpecs, parseArguments } from '../args.js';
import type { CommandDecl, OptionDecl, OptionDecls, SubcommandDecl } from './types.js';

/** Width of help lines before a description wraps. */
const WIDTH = 100;
/** Labels longer than this put their description on the next line. */
const MAX_LABEL = 22;

/** The `--help` switch every command accepts. */
export const HELP_OPTION: OptionDecl = { type: 'boolean', short: 'h', description: 'Show this message' };

/** The parser's option table of a declaration (its options plus `--help`/`-h`). */
export function optionSpecsOf(decl: Pick<CommandDecl, 'options'>): OptionSpecs {
  const specs: Record<string, OptionSpecs[string]> = {};
  for (const [name, option] of Object.entries(decl.options)) {
    specs[name] = {
      type: option.type === 'boolean' ? 'boolean' : 'string',
      ...(option.short === undefined ? {} : { short: option.short }),
      ...(option.multiple === true ? { multiple: true } : {}),
      ...(option.type === 'integer' ? { positiveInteger: true } : {}),
    };
  }
  specs.help = { type: 'boolean', short: 'h' };
  return specs;
}

/** True when `argv` asks for help (`-h`/`--help` before any `--`) and otherwise parses. */
export function asksForHelp(decl: Pick<CommandDecl, 'options'>, argv: readonly string[]): boolean {
  try {
    return parseArguments(argv, optionSpecsOf(decl)).values.help === true;
  } catch {
    return false;
  }
}

/** `-m, --message <msg>` / `--limit <n>` / `--json`. */
export function optionLabel(name: string, option: OptionDecl): string {
  const long = option.type === 'boolean' ? `--${name}` : `--${name} <${option.value ?? 'value'}>`;
  return option.short === undefined ? long : `-${option.short}, ${long}`;
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((part) => part !== '')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** Two columns: labels, then descriptions wrapped and aligned. */
function table(rows: readonly (readonly [string, string])[]): string {
  const column = Math.max(0, ...rows.map(([label]) => label.length).filter((length) => length <= MAX_LABEL)) + 2;
  const out: string[] = [];
  for (const [label, description] of rows) {
    const wrapped = wrap(description, WIDTH - column - 2);
    if (label.length > column - 2) {
      out.push(`  ${label}`);
      for (const line of wrapped) out.push(`  ${' '.repeat(column)}${line}`);
      continue;
    }
    const [first = '', ...rest] = wrapped;
    out.push(`  ${label.padEnd(column)}${first}`.trimEnd());
    for (const line of rest) out.push(`  ${' '.repeat(column)}${line}`);
  }
  return `${out.join('\n')}\n`;
}

function describeOption(option: OptionDecl): string {
  const said = /default/i.test(option.description);
  if (option.default === undefined || said) return option.description;
  return `${option.description} (default ${option.default})`;
}

function subcommandRows(subcommands: readonly SubcommandDecl[]): string {
  const out: string[] = [];
  for (const sub of subcommands) {
    out.push(`  ${sub.name}${sub.usage === undefined ? '' : ` ${sub.usage}`}`);
    for (const line of wrap(sub.summary, WIDTH - 6)) out.push(`      ${line}`);
  }
  return `${out.join('\n')}\n`;
}

/** The option rows of a declaration, `--help` last. */
export function optionRows(options: OptionDecls): (readonly [string, string])[] {
  return [
    ...Object.entries(options).map(([name, option]) => [optionLabel(name, option), describeOption(option)] as const),
    [optionLabel('help', HELP_OPTION), HELP_OPTION.description] as const,
  ];
}

/**
 * One argument form: the first follows `Usage: repomem <name>`; a later one starting with a space
 * continues the form above it; one in parentheses is a note; any other is a new form.
 */
function usageLine(head: string, name: string, line: string, index: number): string {
  if (index === 0) return line === '' ? head : `${head} ${line}`;
  if (line.startsWith(' ')) return `${' '.repeat(head.length + 1)}${line.trim()}`;
  const indent = ' '.repeat('Usage: '.length);
  return line.startsWith('(') ? `${indent}${line}` : `${indent}repomem ${name} ${line}`;
}

/** The full help of a command, as `repomem <command> --help` prints it. */
export function helpText(decl: CommandDecl): string {
  const head = `Usage: repomem ${decl.name}`;
  const parts: string[] = [`${decl.usage.map((line, index) => usageLine(head, decl.name, line, index)).join('\n')}\n`];
  if (decl.description !== undefined) parts.push(`${decl.description.trimEnd()}\n`);
  if (decl.subcommands !== undefined && decl.subcommands.length > 0) {
    parts.push(`Subcommands:\n${subcommandRows(decl.subcommands)}`);
  }
  const positionals = (decl.positionals ?? []).filter((positional) => positional.description !== '');
  if (positionals.length > 0) {
    parts.push(
      `Arguments:\n${table(positionals.map((positional) => [`<${positional.name}${positional.variadic === true ? '...' : ''}>`, positional.description] as const))}`,
    );
  }
  parts.push(`Options:\n${table(optionRows(decl.options))}`);
  for (const section of decl.sections ?? []) parts.push(`${section.title}:\n${section.body.trimEnd()}\n`);
  if (decl.examples.length > 0) {
    parts.push(
      `Examples:\n${decl.examples.map((example) => `  repomem ${example.command}\n      ${example.description}\n`).join('')}`,
    );
  }
  return parts.join('\n');
}
