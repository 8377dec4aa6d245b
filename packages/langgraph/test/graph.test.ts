// Why: the reason this package exists: a compiled LangGraph graph with a checkpointer keeps
// per-thread state, and long-term memory written on one thread must be there on another, kept in
// a real repomem store (SQLite here) where repomem's own search finds it too.
import { Annotation, type LangGraphRunnableConfig, MemorySaver, START, StateGraph } from '@langchain/langgraph';
import { searchStore } from '@repomem/core';
import { afterEach, describe, expect, it } from 'vitest';
import { RepomemStore } from '../src/index.js';
import { STORE_KINDS } from './support.js';

const State = Annotation.Root({
  user: Annotation<string>(),
  learn: Annotation<string | undefined>(),
  recalled: Annotation<string[]>({ reducer: (_, next) => next, default: () => [] }),
});

function buildGraph() {
  return new StateGraph(State)
    .addNode('remember', async (state, config: LangGraphRunnableConfig) => {
      if (state.learn !== undefined) {
        const key = `fact-${(await config.store?.search(['memories', state.user], { limit: 100 }))?.length ?? 0}`;
        await config.store?.put(['memories', state.user], key, { text: state.learn });
      }
      return {};
    })
    .addNode('recall', async (state, config: LangGraphRunnableConfig) => {
      const items = (await config.store?.search(['memories', state.user], { limit: 100 })) ?? [];
      return { recalled: items.map((item) => String(item.value.text)).sort() };
    })
    .addEdge(START, 'remember')
    .addEdge('remember', 'recall');
}

const sqlite = STORE_KINDS.find((kind) => kind.name === 'sqlite');
if (sqlite === undefined) throw new Error('no sqlite store kind');

describe('a compiled StateGraph on RepomemStore (SQLite)', () => {
  let dispose: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await dispose?.();
  });

  it('reads on thread 2 what thread 1 wrote, per user, and repomem search finds it', async () => {
    const opened = await sqlite.open();
    dispose = opened.dispose;
    const store = new RepomemStore({ store: opened.store });
    const graph = buildGraph().compile({ checkpointer: new MemorySaver(), store });

    const first = await graph.invoke(
      { user: 'ada', learn: 'prefers pnpm over npm' },
      { configurable: { thread_id: 'thread-1' } },
    );
    expect(first.recalled).toEqual(['prefers pnpm over npm']);
    await graph.invoke(
      { user: 'ada', learn: 'runs tests before pushing' },
      { configurable: { thread_id: 'thread-1' } },
    );

    const second = await graph.invoke({ user: 'ada' }, { configurable: { thread_id: 'thread-2' } });
    expect(second.recalled).toEqual(['prefers pnpm over npm', 'runs tests before pushing']);
    const other = await graph.invoke({ user: 'grace' }, { configurable: { thread_id: 'thread-2' } });
    expect(other.recalled).toEqual([]);

    const { results } = await searchStore(opened.store, 'pnpm');
    expect(results.map((hit) => hit.path)).toEqual(['langgraph/memories/ada/fact-0.json']);
    const found = await store.search(['memories'], { query: 'pushing tests' });
    expect(found.map((item) => [item.key, typeof item.score])).toEqual([['fact-1', 'number']]);
  });
});
