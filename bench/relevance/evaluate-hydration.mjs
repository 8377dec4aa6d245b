// Why: one scorer of the hydration relevance set, used by the `relevance` bench suite (built
// packages, lexical and with the local model) and by core's fast test (sources, lexical only), so
// the figure the test guards is the figure RESULTS.md reports. It writes the set's memory through
// the public task-memory API (as an agent platform would), hydrates each task at each budget and
// counts which needed items made it into the context.
import { EPISODES, LEARNINGS, PREFERENCES, REPO, RULES, TASKS } from './monorepo-memory.mjs';

const START = Date.UTC(2026, 0, 5);

/**
 * Write the set's memory into `backend` with `core` (the `@repomem/core` module). Returns the map
 * from the set's keys to record ids.
 */
export async function loadMonorepoMemory(core, backend) {
  let minute = 0;
  const now = () => new Date(START + minute++ * 3_600_000);
  const ids = new Map();
  // Interleave learnings and episodes in time, as months of work would.
  const perEpisode = Math.ceil(LEARNINGS.length / EPISODES.length);
  let learning = 0;
  for (const [taskId, description, approach, difficulties, files, status, outcome] of EPISODES) {
    const batch = LEARNINGS.slice(learning, learning + perEpisode);
    learning += batch.length;
    if (batch.length > 0) {
      const result = await core.recordLearnings({
        backend,
        repo: REPO,
        now,
        taskId,
        learnings: batch.map(([, subject, scope, fact]) => ({ subject, scope, fact })),
      });
      batch.forEach(([key], index) => {
        ids.set(key, result.outcomes[index].id);
      });
    }
    await core.writeEpisode({
      backend,
      repo: REPO,
      now,
      episode: {
        task_id: taskId,
        status,
        description,
        approach,
        ...(difficulties === null ? {} : { difficulties }),
        ...(files.length === 0 ? {} : { files_changed: files }),
      },
    });
    if (outcome !== null) {
      await core.recordEpisodeOutcome({ backend, repo: REPO, now, target: { taskId }, merged: outcome === 'merged' });
    }
    ids.set(taskId, taskId);
  }
  for (const [key, rule, scope] of RULES) {
    const at = now().toISOString();
    const id = core.ruleRecordId(rule, scope);
    const record = core.ruleToRecord(
      REPO,
      id,
      {
        rule,
        ...(scope === undefined ? {} : { scope }),
        source: 'review',
        authority: 'owner',
        weight: 1,
        status: 'active',
        provenance: { pr: 100, reviewer: 'maria', association: 'OWNER', extracted_at: at, prompt_version: 'manual' },
        confirmations: [],
        supersedes: [],
        tasks_since_retrieved: 0,
      },
      1,
      at,
    );
    const applied = await backend.apply([{ record, expectedRevision: null }]);
    if (!applied.ok) throw new Error(`rule ${key} conflicted`);
    ids.set(key, id);
  }
  for (const [key, user, preference] of PREFERENCES) {
    const stored = await core.setPreference({ backend, repo: REPO, user, preference, now });
    ids.set(key, stored.id);
  }
  return ids;
}

/** Mean of numbers (0 for none). */
const mean = (values) => (values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length);

/**
 * Hydrate every task of the set at each budget and report recall of the needed items, for the
 * tuning part and the held-out part apart. `semantic` (a SemanticIndex) makes it hybrid.
 * Returns `{ budgets: { [budget]: { tuning, heldOut, perTask } } }`, recall as a share (0-1).
 */
export async function evaluateHydration(core, { budgets = [2000, 600], semantic, backend } = {}) {
  const records = backend ?? core.createDocumentTaskRecordBackend(core.createInMemoryStore());
  const ids = await loadMonorepoMemory(core, records);
  const keyOf = new Map([...ids].map(([key, id]) => [id, key]));
  const result = {};
  for (const budget of budgets) {
    const perTask = [];
    for (const task of TASKS) {
      const hydrated = await core.hydrate({
        backend: records,
        repo: REPO,
        task: { id: `eval-${task.id}`, description: task.text, user: task.user },
        budgetTokens: budget,
        ...(semantic === undefined ? {} : { semantic }),
      });
      const included = new Set(hydrated.receipt.items.filter((item) => item.included).map((item) => item.id));
      const missed = task.needed.filter((key) => !included.has(ids.get(key)));
      perTask.push({
        id: task.id,
        heldOut: task.heldOut === true,
        recall: (task.needed.length - missed.length) / task.needed.length,
        missed,
        reasons: missed.map(
          (key) => hydrated.receipt.items.find((item) => item.id === ids.get(key))?.reason ?? 'not a candidate',
        ),
        warnings: hydrated.warnings.length + hydrated.errors.length,
        items: hydrated.receipt.items.map((item) => ({
          key: keyOf.get(item.id) ?? item.id,
          score: item.score,
          tokens: item.tokens,
          included: item.included,
          reason: item.reason,
          needed: task.needed.includes(keyOf.get(item.id)),
        })),
      });
    }
    result[budget] = {
      tuning: mean(perTask.filter((task) => !task.heldOut).map((task) => task.recall)),
      heldOut: mean(perTask.filter((task) => task.heldOut).map((task) => task.recall)),
      perTask,
    };
  }
  return {
    budgets: result,
    tasks: { tuning: TASKS.filter((t) => !t.heldOut).length, heldOut: TASKS.filter((t) => t.heldOut).length },
  };
}
