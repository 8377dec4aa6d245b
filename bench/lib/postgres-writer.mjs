// Why: one of the concurrent writers of the PostgreSQL benchmark (a separate process, as the
// machines of a team are): opens the store from a spec, scoped to its own repository, and adds
// `count` bullets to MEMORY.md through core's memory facade, then prints its wall time as JSON.
// Arguments: <core dist url> <store package dist url> <spec> <worker> <count>
const [coreUrl, , spec, workerText, countText] = process.argv.slice(2);
const core = await import(coreUrl);
const worker = Number(workerText);
const count = Number(countText);
const store = await core.openStore(spec, { repo: `bench/writer-${worker}`, cwd: process.cwd() });
const memory = core.openMemory({ store });
const started = process.hrtime.bigint();
for (let i = 0; i < count; i++) {
  const outcome = await memory.add({ file: 'MEMORY.md', section: 'Notes', text: `writer ${worker} bullet ${i}` });
  if (outcome.kind !== 'added') throw new Error(`bullet ${i} of writer ${worker}: ${outcome.kind}`);
}
const ms = Number(process.hrtime.bigint() - started) / 1e6;
await store.close();
process.stdout.write(`${JSON.stringify({ worker, count, ms })}\n`);
