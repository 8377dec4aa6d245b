// Why: `repomem init`: seeds the memory tree through the facade (creating the directory when
// missing) and reports what was created.
import { ExitCode } from '../errors.js';
import { formatInitText, initJson } from '../format/init-output.js';
import type { CliIo } from '../io.js';
import { chooseMemoryDirectory, openMemoryAt } from '../memory-dir.js';
import { reportError, wantsJson } from '../report-error.js';
import { INIT_USAGE } from '../usage.js';
import { parseInitArguments } from './init-args.js';

/** Run `repomem init <argv...>`; returns the exit code. */
export async function runInitCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const json = wantsJson(argv);
  try {
    const request = parseInitArguments(argv);
    if (request.help) {
      io.stdout.write(INIT_USAGE);
      return ExitCode.ok;
    }
    const directory = chooseMemoryDirectory(request.dir, io);
    const memory = await openMemoryAt(directory, { mode: 'enabled', create: true });
    try {
      const result = await memory.init();
      io.stdout.write(
        request.json
          ? `${JSON.stringify(initJson(result, directory.display))}\n`
          : formatInitText(result, directory.display),
      );
    } finally {
      await memory.store.close();
    }
    return ExitCode.ok;
  } catch (error) {
    return reportError(error, io, INIT_USAGE, json);
  }
}
