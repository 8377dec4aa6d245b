// Why: Sepo's support CLIs hand their results to later workflow steps as step outputs, appended
// to the file `$GITHUB_OUTPUT` names; repomem's counterparts write the same names the same way.
import { appendFileSync } from 'node:fs';
import type { CliIo } from './io.js';

/**
 * Append the step output `name=value` to the file named by `$GITHUB_OUTPUT` (a value holding a
 * newline uses GitHub's `name<<DELIMITER` form). Without `$GITHUB_OUTPUT` (outside Actions)
 * nothing is written.
 */
export function setStepOutput(io: Pick<CliIo, 'env'>, name: string, value: string): void {
  const file = io.env.GITHUB_OUTPUT;
  if (file === undefined || file === '') return;
  if (!/[\r\n]/.test(value)) {
    appendFileSync(file, `${name}=${value}\n`);
    return;
  }
  let delimiter = 'REPOMEM_EOF';
  while (value.includes(delimiter)) delimiter += '_';
  appendFileSync(file, `${name}<<${delimiter}\n${value}\n${delimiter}\n`);
}
