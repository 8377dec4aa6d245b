// Why: the store kit port of AgentCore changed how a batch of several documents is written (core's
// per-key pipeline instead of the store's own parallel appends); this times one 100-document batch at
// 25 ms per request against the emulator, for a build's store-agentcore dist given as the argument:
//   node bench/agentcore-batch.mjs packages/store-agentcore/dist
const dist = new URL(process.argv[2] ?? '../packages/store-agentcore/dist', `file://${process.cwd()}/`).href.replace(
  /\/$/,
  '',
);
const { createAgentCoreStore, openAgentCoreConnection } = await import(`${dist}/index.js`);
const { startAgentCoreEmulator, EMULATOR_CREDENTIALS } = await import(`${dist}/testing/index.js`);
const emulator = await startAgentCoreEmulator({ latencyMs: 25 });
const connection = openAgentCoreConnection({
  memoryId: emulator.memoryId,
  endpoint: emulator.endpoint,
  region: emulator.region,
  credentials: { ...EMULATOR_CREDENTIALS },
});
const utf8 = (t) => new TextEncoder().encode(t);
const out = [];
for (let run = 0; run < 3; run++) {
  const store = createAgentCoreStore({ connection, repo: `bench/batch${run}`, ownsConnection: false });
  const ops = [];
  for (let i = 0; i < 100; i++) ops.push({ kind: 'put', path: `daily/d-${i}.md`, content: utf8(`- item ${i}\n`) });
  emulator.resetStats();
  const start = performance.now();
  const r = await store.write(ops);
  out.push(`${r.status} ${(performance.now() - start).toFixed(0)} ms ${emulator.stats().requests} requests`);
  await store.close();
}
console.log(dist.includes('baseline') ? 'before' : 'after', out.join('; '));
connection.close();
await emulator.close();
