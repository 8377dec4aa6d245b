// Why: "how much JavaScript does this command load" must be measured, not guessed from bundle
// sizes. Preloaded with `node --import <this file> ...`, it records the URL of every file the
// module loader loads (ESM imports and CommonJS requires alike, through `module.registerHooks`)
// and writes them as a JSON array to $REPOMEM_BENCH_LOADED_JS when the process exits. Built-in
// modules (`node:*`) are not files and are not recorded. Used only for untimed runs.
import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

// biome-ignore lint/suspicious/noUndeclaredEnvVars: set by bench/lib/loaded-js.mjs for this child only
const target = process.env.REPOMEM_BENCH_LOADED_JS;
const loaded = new Set();

registerHooks({
  load(url, context, nextLoad) {
    if (url.startsWith('file:')) loaded.add(url);
    return nextLoad(url, context);
  },
});

process.on('exit', () => {
  if (target) writeFileSync(target, JSON.stringify([...loaded]));
});
