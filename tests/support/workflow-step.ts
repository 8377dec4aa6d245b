// Why: the example workflows' "Install repomem" step is shell inside YAML; the pack test runs
// that exact script, so it is cut out of the file here (a named step's `run: |` block, without a
// YAML dependency).
import { readFileSync } from 'node:fs';

/** The `run: |` block of the step called `name` in a workflow file, dedented. */
export function stepScript(workflowFile: string, name: string): string {
  const lines = readFileSync(workflowFile, 'utf8').split('\n');
  const start = lines.findIndex((line) => line.trim() === `- name: ${name}`);
  if (start < 0) throw new Error(`${workflowFile}: no step named "${name}"`);
  const stepIndent = (lines[start] ?? '').indexOf('-');
  for (let index = start + 1; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    const indent = line.length - line.trimStart().length;
    if (line.trim() !== '' && indent <= stepIndent) break;
    if (/^\s*run:\s*\|\s*$/.test(line)) {
      const body: string[] = [];
      for (let inner = index + 1; inner < lines.length; inner += 1) {
        const next = lines[inner] ?? '';
        if (next.trim() !== '' && next.length - next.trimStart().length <= indent) break;
        body.push(next);
      }
      const margin = Math.min(
        ...body.filter((text) => text.trim() !== '').map((text) => text.length - text.trimStart().length),
      );
      return body.map((text) => text.slice(margin)).join('\n');
    }
  }
  throw new Error(`${workflowFile}: step "${name}" has no run: | block`);
}
