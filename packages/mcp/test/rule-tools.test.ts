// Why: pending review rules are visible over MCP with their reasons, in read-only mode too, and
// nothing over MCP can approve or reject one (only a maintainer's `repomem rules approve`).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  approveRule,
  createDocumentTaskRecordBackend,
  createInMemoryStore,
  type MemoryMode,
  parseRuleOutput,
  saveRules,
} from '@repomem/core';
import { describe, expect, it } from 'vitest';
import { createMemoryMcpServer } from '../src/index.js';

const REPO = 'acme/app';

async function connected(mode: MemoryMode) {
  const store = createInMemoryStore();
  const tasks = createDocumentTaskRecordBackend(store);
  const parsed = parseRuleOutput('RULE: Prefer early returns over nesting\nRULE: Never print secrets in CI output', {
    repo: REPO,
    pr: 4,
    reviewer: 'alice',
    association: 'OWNER',
    extracted_at: '2026-01-02T03:04:05.000Z',
    prompt_version: 'sha256:test',
  });
  await saveRules(tasks, REPO, [...parsed.accepted, ...parsed.pending]);
  const server = await createMemoryMcpServer({ store, taskBackend: tasks, repo: REPO, mode });
  const client = new Client({ name: 'test', version: '1.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return { client, tasks };
}

describe('memory.list_rules', () => {
  it.each(['enabled', 'read-only'] as const)('lists pending rules with their reasons (%s)', async (mode) => {
    const { client, tasks } = await connected(mode);
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toContain('memory.list_rules');
    expect(names.filter((name) => /approve|reject/.test(name))).toEqual([]);
    const listed = (await client.callTool({ name: 'memory.list_rules', arguments: {} })).structuredContent as {
      status: string;
      rules: { id: string; rule: string; reasons: { reason: string }[] }[];
    };
    expect(listed.status).toBe('pending');
    expect(listed.rules.map((rule) => rule.rule)).toEqual(['Never print secrets in CI output']);
    expect(listed.rules[0]?.reasons.map((reason) => reason.reason)).toContain('sensitive_subject');
    await approveRule(tasks, REPO, listed.rules[0]?.id ?? '', { by: 'alice' });
    const active = (await client.callTool({ name: 'memory.list_rules', arguments: { status: 'active' } }))
      .structuredContent as { rules: { decided_by?: string }[] };
    expect(active.rules.map((rule) => rule.decided_by)).toEqual(['alice', undefined]);
    await client.close();
  });
});
