// Why: shell completion for bash, zsh and fish, generated from the command tree: the commands
// and their summaries, each command's subcommands, the options each (sub)command accepts with
// their descriptions, the values of options and arguments with a fixed set, and files or
// directories where a value is a path. One model of the tree, three small renderers; the scripts
// are static (no `repomem` call at completion time, so completing costs no Node start).
import { ROOT } from './root.js';
import type { CommandDecl, CompletionKind, OptionDecl, PositionalDecl } from './types.js';

/** Shells `repomem completion` writes scripts for. */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
/** One of {@link SHELLS}. */
export type Shell = (typeof SHELLS)[number];

/** A command of the tree with its declaration loaded. */
export interface TreeNode {
  readonly name: string;
  readonly summary: string;
  readonly decl: CommandDecl;
}

/** Every command of the tree, declarations loaded. */
export async function loadTree(): Promise<readonly TreeNode[]> {
  return Promise.all(
    ROOT.map(async (entry) => ({ name: entry.name, summary: entry.summary, decl: await entry.declaration() })),
  );
}

interface ValueModel {
  readonly choices: readonly string[];
  readonly complete: CompletionKind;
}

interface OptionModel extends ValueModel {
  readonly long: string;
  readonly short: string | undefined;
  readonly description: string;
  readonly takesValue: boolean;
}

interface ScopeModel {
  /** Long names (with `--`) offered here. */
  readonly options: readonly string[];
  readonly positional: ValueModel | undefined;
}

interface CommandModel {
  readonly name: string;
  readonly summary: string;
  readonly options: readonly OptionModel[];
  readonly subcommands: readonly { readonly name: string; readonly summary: string; readonly scope: ScopeModel }[];
  /** What is offered before a subcommand is given, or when the command has none. */
  readonly scope: ScopeModel;
}

/** Options a user may give before the command (`repomem --store <spec> search q`). */
const LEADING: readonly OptionModel[] = [
  { long: '--store', short: undefined, description: 'Store spec', takesValue: true, choices: [], complete: 'none' },
  {
    long: '--dir',
    short: undefined,
    description: 'Memory directory',
    takesValue: true,
    choices: [],
    complete: 'directory',
  },
  {
    long: '--repo',
    short: undefined,
    description: 'Repository owner/name',
    takesValue: true,
    choices: [],
    complete: 'none',
  },
  { long: '--help', short: '-h', description: 'Show help', takesValue: false, choices: [], complete: 'none' },
  {
    long: '--version',
    short: '-v',
    description: 'Print the version',
    takesValue: false,
    choices: [],
    complete: 'none',
  },
];

function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const end = flat.search(/[.;](\s|$)/);
  const sentence = end === -1 ? flat : flat.slice(0, end);
  return sentence.length > 90 ? `${sentence.slice(0, 87)}...` : sentence;
}

function optionModel(name: string, option: OptionDecl): OptionModel {
  return {
    long: `--${name}`,
    short: option.short === undefined ? undefined : `-${option.short}`,
    description: firstSentence(option.description),
    takesValue: option.type !== 'boolean',
    choices: option.choices ?? [],
    complete: option.complete ?? 'none',
  };
}

function positionalValue(positional: PositionalDecl | undefined, commands: readonly string[]): ValueModel | undefined {
  if (positional === undefined) return undefined;
  return {
    choices: positional.name === 'command' ? commands : (positional.choices ?? []),
    complete: positional.complete ?? 'none',
  };
}

function commandModel(node: TreeNode, commands: readonly string[]): CommandModel {
  const { decl } = node;
  const options = [
    ...Object.entries(decl.options).map(([name, option]) => optionModel(name, option)),
    {
      long: '--help',
      short: '-h',
      description: 'Show this message',
      takesValue: false,
      choices: [],
      complete: 'none',
    } as const,
  ];
  const all = options.map((option) => option.long);
  const subcommands = (decl.subcommands ?? []).map((sub) => ({
    name: sub.name,
    summary: firstSentence(sub.summary),
    scope: {
      options:
        sub.options === undefined
          ? all
          : ['--help', ...[...(decl.common ?? []), ...sub.options].map((name) => `--${name}`)],
      positional: positionalValue((sub.positionals ?? decl.positionals)?.[0], commands),
    },
  }));
  return {
    name: node.name,
    summary: firstSentence(node.summary),
    options,
    subcommands,
    scope: { options: all, positional: positionalValue(decl.positionals?.[0], commands) },
  };
}

/** The script of `shell` for the tree. */
export function completionScript(shell: Shell, tree: readonly TreeNode[]): string {
  const names = tree.map((node) => node.name);
  const models = tree.map((node) => commandModel(node, names));
  switch (shell) {
    case 'bash':
      return bashScript(models);
    case 'zsh':
      return zshScript(models);
    case 'fish':
      return fishScript(models);
  }
}

/** `'it''s'` in sh: single quotes, each inner quote closed, escaped and reopened. */
function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

const valueOptions = (model: CommandModel): string =>
  model.options
    .filter((option) => option.takesValue)
    .map((option) => option.long)
    .join(' ');

/** `case "$prev"` arms completing option values; `reply` renders one value model. */
function valueArms(model: CommandModel, reply: (value: ValueModel) => string, indent: string): string {
  return model.options
    .filter((option) => option.takesValue)
    .map(
      (option) =>
        `${indent}${[option.long, option.short].filter((name) => name !== undefined).join('|')}) ${reply(option)} ;;\n`,
    )
    .join('');
}

function bashReply(value: ValueModel): string {
  if (value.choices.length > 0)
    return `COMPREPLY=($(compgen -W ${quote(value.choices.join(' '))} -- "$cur")); return 0`;
  if (value.complete === 'file')
    return 'compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")); return 0';
  if (value.complete === 'directory')
    return 'compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")); return 0';
  return 'return 0';
}

function bashScope(scope: ScopeModel, indent: string): string {
  const positional = scope.positional === undefined ? 'return 0' : bashReply(scope.positional);
  return `${indent}if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W ${quote(scope.options.join(' '))} -- "$cur")); return 0; fi\n${indent}${positional}\n`;
}

function bashScript(models: readonly CommandModel[]): string {
  const takes = models.map((model) => `    ${model.name}) echo ${quote(valueOptions(model))} ;;\n`).join('');
  const arms = models
    .map((model) => {
      let body = `      case "$prev" in\n${valueArms(model, bashReply, '        ')}      esac\n`;
      if (model.subcommands.length > 0) {
        body += `      if [[ -z "$sub" ]]; then\n        if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W ${quote(model.scope.options.join(' '))} -- "$cur")); return 0; fi\n        COMPREPLY=($(compgen -W ${quote(model.subcommands.map((sub) => sub.name).join(' '))} -- "$cur")); return 0\n      fi\n      case "$sub" in\n`;
        for (const sub of model.subcommands)
          body += `        ${sub.name})\n${bashScope(sub.scope, '          ')}          ;;\n`;
        body += '      esac\n';
      } else {
        body += bashScope(model.scope, '      ');
      }
      return `    ${model.name})\n${body}      ;;\n`;
    })
    .join('');
  return `# bash completion for repomem, generated from its command tree by \`repomem completion bash\`.
# Install: repomem completion bash > ~/.local/share/bash-completion/completions/repomem
#      or: echo 'source <(repomem completion bash)' >> ~/.bashrc

# The options of a command that take a value (their values are not subcommands).
_repomem_value_options() {
  case "$1" in
${takes}  esac
}

_repomem_complete() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" cmd="" sub="" word i=1
  COMPREPLY=()
  if (( COMP_CWORD > 0 )); then prev="\${COMP_WORDS[COMP_CWORD-1]}"; fi
  while (( i < COMP_CWORD )); do
    word="\${COMP_WORDS[i]}"
    if [[ -z "$cmd" ]]; then
      case "$word" in
        --store|--dir|--repo) i=$((i + 2)); continue ;;
        -*) ;;
        *) cmd="$word" ;;
      esac
    elif [[ "$word" == "--" ]]; then
      break
    elif [[ " $(_repomem_value_options "$cmd") " == *" $word "* ]]; then
      i=$((i + 2)); continue
    elif [[ "$word" != -* && -z "$sub" ]]; then
      sub="$word"
    fi
    i=$((i + 1))
  done
  if [[ -z "$cmd" ]]; then
    case "$prev" in
      --store|--repo) return 0 ;;
      --dir) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")); return 0 ;;
    esac
    if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W ${quote(LEADING.flatMap((option) => [option.long, option.short ?? []].flat()).join(' '))} -- "$cur")); return 0; fi
    COMPREPLY=($(compgen -W ${quote(models.map((model) => model.name).join(' '))} -- "$cur"))
    return 0
  fi
  case "$cmd" in
${arms}  esac
  return 0
}

complete -F _repomem_complete repomem
`;
}

/** `name:description` for zsh's _describe (a colon in the name escaped). */
function described(name: string, description: string): string {
  return quote(`${name.replace(/:/g, '\\:')}:${description}`);
}

function zshReply(value: ValueModel): string {
  if (value.choices.length > 0) return `compadd -- ${value.choices.map(quote).join(' ')}; return`;
  if (value.complete === 'file') return '_files; return';
  if (value.complete === 'directory') return '_files -/; return';
  return "_message 'value'; return";
}

function zshOptions(model: CommandModel, longs: readonly string[]): string {
  const byLong = new Map(model.options.map((option) => [option.long, option]));
  return longs
    .map((long) => byLong.get(long))
    .filter((option): option is OptionModel => option !== undefined)
    .map((option) => described(option.long, option.description))
    .join(' ');
}

function zshScope(model: CommandModel, scope: ScopeModel, indent: string): string {
  const positional = scope.positional === undefined ? 'return' : zshReply(scope.positional);
  return `${indent}if [[ $PREFIX == -* ]]; then candidates=(${zshOptions(model, scope.options)}); _describe -t options option candidates; return; fi\n${indent}${positional}\n`;
}

function zshScript(models: readonly CommandModel[]): string {
  const takes = models.map((model) => `    ${model.name}) print -r -- ${quote(valueOptions(model))} ;;\n`).join('');
  const arms = models
    .map((model) => {
      let body = `      case $prev in\n${valueArms(model, zshReply, '        ')}      esac\n`;
      if (model.subcommands.length > 0) {
        body += `      if [[ -z $sub ]]; then\n        if [[ $PREFIX == -* ]]; then candidates=(${zshOptions(model, model.scope.options)}); _describe -t options option candidates; return; fi\n        candidates=(${model.subcommands.map((sub) => described(sub.name, sub.summary)).join(' ')}); _describe -t subcommands subcommand candidates; return\n      fi\n      case $sub in\n`;
        for (const sub of model.subcommands)
          body += `        ${sub.name})\n${zshScope(model, sub.scope, '          ')}          ;;\n`;
        body += '      esac\n';
      } else {
        body += zshScope(model, model.scope, '      ');
      }
      return `    ${model.name})\n${body}      ;;\n`;
    })
    .join('');
  return `#compdef repomem
# zsh completion for repomem, generated from its command tree by \`repomem completion zsh\`.
# Install: repomem completion zsh > "\${fpath[1]}/_repomem"  (then restart zsh)
#      or: echo 'source <(repomem completion zsh)' >> ~/.zshrc  (after compinit)

_repomem_value_options() {
  case "$1" in
${takes}  esac
}

_repomem() {
  local cmd="" sub="" word prev="\${words[CURRENT-1]}" i=2
  local -a candidates
  while (( i < CURRENT )); do
    word="\${words[i]}"
    if [[ -z $cmd ]]; then
      case $word in
        --store|--dir|--repo) (( i += 2 )); continue ;;
        -*) ;;
        *) cmd=$word ;;
      esac
    elif [[ $word == -- ]]; then
      break
    elif [[ " $(_repomem_value_options $cmd) " == *" $word "* ]]; then
      (( i += 2 )); continue
    elif [[ $word != -* && -z $sub ]]; then
      sub=$word
    fi
    (( i += 1 ))
  done
  if [[ -z $cmd ]]; then
    case $prev in
      --store|--repo) _message 'value'; return ;;
      --dir) _files -/; return ;;
    esac
    if [[ $PREFIX == -* ]]; then candidates=(${LEADING.map((option) => described(option.long, option.description)).join(' ')}); _describe -t options option candidates; return; fi
    candidates=(${models.map((model) => described(model.name, model.summary)).join(' ')})
    _describe -t commands 'repomem command' candidates
    return
  fi
  case $cmd in
${arms}  esac
}

if [[ "\${funcstack[1]}" == _repomem ]]; then
  _repomem "$@"
else
  compdef _repomem repomem
fi
`;
}

function fishValue(value: ValueModel): string {
  if (value.choices.length > 0) return ` -x -a ${quote(value.choices.join(' '))}`;
  if (value.complete === 'file') return ' -r -F';
  if (value.complete === 'directory') return " -x -a '(__fish_complete_directories)'";
  return ' -x';
}

function fishScript(models: readonly CommandModel[]): string {
  const lines: string[] = [];
  const takes = models
    .map((model) => `        case ${model.name}\n            contains -- $argv[2] ${valueOptions(model) || "''"}\n`)
    .join('');
  for (const option of LEADING) {
    lines.push(
      `complete -c repomem -n __repomem_needs_command -l ${option.long.slice(2)}${option.short === undefined ? '' : ` -s ${option.short.slice(1)}`}${option.takesValue ? (option.complete === 'directory' ? " -x -a '(__fish_complete_directories)'" : ' -x') : ''} -d ${quote(option.description)}`,
    );
  }
  for (const model of models) {
    lines.push(`complete -c repomem -n __repomem_needs_command -a ${model.name} -d ${quote(model.summary)}`);
  }
  for (const model of models) {
    const byLong = new Map(model.options.map((option) => [option.long, option]));
    const optionLines = (condition: string, longs: readonly string[]): void => {
      for (const long of longs) {
        const option = byLong.get(long);
        if (option === undefined) continue;
        lines.push(
          `complete -c repomem -n ${quote(condition)} -l ${long.slice(2)}${option.short === undefined ? '' : ` -s ${option.short.slice(1)}`}${option.takesValue ? fishValue(option) : ''} -d ${quote(option.description)}`,
        );
      }
    };
    const positionalLine = (condition: string, value: ValueModel | undefined): void => {
      if (value === undefined) return;
      if (value.choices.length > 0)
        lines.push(`complete -c repomem -n ${quote(condition)} -a ${quote(value.choices.join(' '))}`);
      else if (value.complete === 'file') lines.push(`complete -c repomem -n ${quote(condition)} -F`);
      else if (value.complete === 'directory')
        lines.push(`complete -c repomem -n ${quote(condition)} -a '(__fish_complete_directories)'`);
    };
    if (model.subcommands.length === 0) {
      optionLines(`__repomem_at ${model.name}`, model.scope.options);
      positionalLine(`__repomem_at ${model.name}`, model.scope.positional);
      continue;
    }
    optionLines(`__repomem_needs_sub ${model.name}`, model.scope.options);
    for (const sub of model.subcommands) {
      lines.push(
        `complete -c repomem -n ${quote(`__repomem_needs_sub ${model.name}`)} -a ${sub.name} -d ${quote(sub.summary)}`,
      );
      optionLines(`__repomem_at ${model.name} ${sub.name}`, sub.scope.options);
      positionalLine(`__repomem_at ${model.name} ${sub.name}`, sub.scope.positional);
    }
  }
  return `# fish completion for repomem, generated from its command tree by \`repomem completion fish\`.
# Install: repomem completion fish > ~/.config/fish/completions/repomem.fish

# True when option $argv[2] of command $argv[1] takes a value.
function __repomem_takes_value
    switch $argv[1]
${takes}    end
end

# The command and subcommand typed so far (leading --store/--dir/--repo and option values skipped).
function __repomem_words
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l cmd
    set -l sub
    set -l skip 0
    for token in $tokens
        if test $skip -eq 1
            set skip 0
            continue
        end
        if test -z "$cmd"
            switch $token
                case --store --dir --repo
                    set skip 1
                case '-*'
                case '*'
                    set cmd $token
            end
        else if test "$token" = --
            break
        else if __repomem_takes_value $cmd $token
            set skip 1
        else if string match -q -- '-*' $token
        else if test -z "$sub"
            set sub $token
        end
    end
    echo $cmd
    echo $sub
end

function __repomem_needs_command
    set -l words (__repomem_words)
    test -z "$words[1]"
end

function __repomem_needs_sub
    set -l words (__repomem_words)
    test "$words[1]" = $argv[1]; and test -z "$words[2]"
end

function __repomem_at
    set -l words (__repomem_words)
    test "$words[1]" = $argv[1]; or return 1
    test (count $argv) -lt 2; or test "$words[2]" = $argv[2]
end

complete -c repomem -f
${lines.join('\n')}
`;
}
