// Why: `repomem history|checkpoint|bootstrap|mount|commit|push|state`: thin wiring from parsed
// requests to @repomem/store-git (object mode for history and checkpoints, checkout mode for mount
// and commit, remote sync, state refs); wording lives in format/branch-output.ts. store-git is
// loaded on demand.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { RepomemError } from '@repomem/core';
import type { StateRefName } from '@repomem/store-git';
import { type CommandReport, writeReport } from '../command-report.js';
import { CliDataError, CliUsageError } from '../errors.js';
import {
  describeBootstrap,
  describeCheckpoint,
  describeHistory,
  describeMount,
  describeMountedCommit,
  describeStateRead,
  describeStateWrite,
  describeSync,
} from '../format/branch-output.js';
import { branchOptions, chooseGitStore, openGitChoice } from '../git-store-choice.js';
import type { CliIo } from '../io.js';
import { chooseRepo } from '../store-selection.js';
import { commandRunner } from '../tree/command-runner.js';
import type { CommandRunner } from '../tree/types.js';
import { BRANCH_DECLS, type BranchAction, type BranchCommand, branchRequestOf } from './branch-args.js';

/** The repository whose state is read or written: `--repo`, else `$GITHUB_REPOSITORY`, else none (any state is accepted). */
function stateRepo(repo: string | undefined, io: CliIo): string | undefined {
  if (repo === undefined && (io.env.GITHUB_REPOSITORY ?? '') === '') return undefined;
  return chooseRepo(repo, io);
}

/** The JSON of `state write` (`--state` or `--file`), parsed; bad JSON is a usage error naming its source. */
async function stateInput(input: { readonly json: string } | { readonly file: string }, cwd: string): Promise<unknown> {
  const source = 'json' in input ? '--state' : `--file ${input.file}`;
  let text: string;
  if ('json' in input) {
    text = input.json;
  } else {
    try {
      text = await readFile(resolve(cwd, input.file), 'utf8');
    } catch (error) {
      throw new CliDataError('NOT_FOUND', `cannot read ${input.file}: ${(error as Error).message}`);
    }
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    // Only the position: the parser's own message quotes the input, which may be any file's bytes.
    const position = /position (\d+)/.exec((error as Error).message)?.[1];
    throw new CliUsageError(`invalid ${source}: not JSON${position === undefined ? '' : ` (at position ${position})`}`);
  }
}

async function runAction(action: BranchAction, store: string | undefined, io: CliIo): Promise<CommandReport> {
  const git = await import('@repomem/store-git');
  switch (action.kind) {
    case 'history': {
      const chosen = await chooseGitStore(store, io, 'history');
      const opened = await openGitChoice(chosen);
      try {
        const revisions = await opened.gitLog({
          ...(action.path === undefined ? {} : { path: action.path }),
          ...(action.limit === undefined ? {} : { limit: action.limit }),
        });
        return describeHistory(chosen.label, action.path, revisions);
      } finally {
        await opened.close();
      }
    }
    case 'checkpoint': {
      const trailers = Object.keys(action.trailers).length > 0 ? { trailers: action.trailers } : {};
      if (action.into !== undefined) {
        const into = resolve(io.cwd, action.into);
        const outcome = await git.commitMountedTree({
          into,
          message: { subject: `checkpoint: ${action.note}` },
          ...trailers,
        });
        return describeMountedCommit(into, outcome, 'checkpoint');
      }
      const chosen = await chooseGitStore(store, io, 'checkpoint');
      const opened = await openGitChoice(chosen);
      try {
        return describeCheckpoint(chosen.label, action.note, await opened.checkpoint(action.note, trailers));
      } finally {
        await opened.close();
      }
    }
    case 'bootstrap': {
      const chosen = await chooseGitStore(store, io, 'bootstrap');
      try {
        return describeBootstrap(await git.bootstrapMemoryBranch(branchOptions(chosen)));
      } catch (error) {
        // Like Sepo's bootstrap workflow: an existing branch is refused, never overwritten.
        if (error instanceof RepomemError && error.code === 'CONFLICT')
          throw new CliDataError('CONFLICT', error.message);
        throw error;
      }
    }
    case 'mount': {
      const chosen = await chooseGitStore(store, io, 'mount');
      return describeMount(
        await git.mountMemoryBranch({ ...branchOptions(chosen), into: resolve(io.cwd, action.into) }),
      );
    }
    case 'commit': {
      const into = resolve(io.cwd, action.into);
      const outcome = await git.commitMountedTree({
        into,
        ...(action.message === undefined ? {} : { message: action.message }),
        ...(Object.keys(action.trailers).length > 0 ? { trailers: action.trailers } : {}),
      });
      return describeMountedCommit(into, outcome);
    }
    case 'push': {
      const chosen = await chooseGitStore(store, io, 'push');
      const token = io.env.GITHUB_TOKEN;
      const remote = action.url ?? action.remote ?? git.DEFAULT_REMOTE;
      const outcome = await git.syncMemoryBranch({
        ...branchOptions(chosen),
        ...(action.url === undefined ? {} : { url: action.url }),
        ...(action.remote === undefined ? {} : { remote: action.remote }),
        // $GITHUB_TOKEN goes only to the GitHub host it belongs to, never to another remote.
        ...(token === undefined || token === '' ? {} : { token, tokenHosts: git.githubTokenHosts(io.env) }),
      });
      return describeSync(chosen.label, remote.replace(/\/\/[^@/]*@/, '//'), outcome);
    }
    case 'state-read': {
      const chosen = await chooseGitStore(store, io, 'state read');
      const repo = stateRepo(action.repo, io);
      return describeStateRead(
        await git.readStateRef({
          dir: chosen.dir,
          ref: action.ref as StateRefName,
          ...(repo === undefined ? {} : { repo }),
        }),
        repo,
      );
    }
    case 'state-write': {
      const chosen = await chooseGitStore(store, io, 'state write');
      const repo = stateRepo(action.repo, io);
      const state = await stateInput(action.input, io.cwd);
      const ref = action.ref as StateRefName;
      let expected = action.expected;
      if (expected === undefined) {
        // No lease given: write over whatever the ref holds now (still compare-and-swap against that).
        const current = await git.readStateRef({ dir: chosen.dir, ref });
        expected = current.status === 'missing' ? null : current.commit;
      }
      return describeStateWrite(
        await git.writeStateRef({
          dir: chosen.dir,
          ref,
          state,
          expected,
          ...(repo === undefined ? {} : { repo }),
        }),
      );
    }
  }
}

/** The runner of one branch command (`history`, `checkpoint`, `bootstrap`, `mount`, `commit`, `push`, `state`). */
export function branchCommand(command: BranchCommand): CommandRunner {
  return commandRunner(
    BRANCH_DECLS[command],
    async (args, io) => {
      const request = branchRequestOf(command, args);
      return writeReport(await runAction(request.action, request.store, io), io, request.json);
    },
    { subcommand: 'own' },
  );
}
