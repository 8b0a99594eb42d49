import { randomUUID } from 'node:crypto';
import type { ActorRegistry } from '../../actors/actor-registry';
import type { Agent } from '../../agents/agent';
import type { AgentRunAggregate } from '../../agents/agent-run/agent-run.state';
import { DomainError } from '../../domain/decider';
import { MAX_MEMORY_VALUE_BYTES, MEMORY_KEY as KEY } from '../../memory/memory-address';
import { memoryItemDecider, memoryStream } from '../../memory/memory-item';
import { matchExpression } from '../../memory/queries/memory-text';
import type { MemorySearch } from '../../memory/queries/memory-search';
import type { MemoryReadModel } from '../../memory/queries/memory.read-model';
import type { Clock } from '../../shared/clock';
import { fillNamespace } from '../../shared/memory-namespace';
import type { RunnableTool } from '../../tools/tool';
import { schemaErrors } from '../../shared/json-schema';
import { workingMemoryOf } from './memory-recall';

/** What the memory tools need: the store to write the items, the read model and search to read them, the time. */
export interface MemoryToolsDeps {
  actors: ActorRegistry;
  memory: MemoryReadModel;
  memorySearch: MemorySearch;
  clock: Clock;
}

const KEY_FIELD = { type: 'string', maxLength: 200, pattern: KEY.source };

/**
 * The tools an agent with `memory.tools` gives its model, on the run's namespace (its `memory.namespace` filled in
 * from the run's context): `remember` puts an item (a new version; the item's source names the run), `recall`
 * searches the items (by words, and by meaning too when `EMBEDDING_MODEL` is set), `forget` deletes one. None when the namespace cannot be filled in.
 */
export function memoryTools(agent: Agent, run: AgentRunAggregate, deps: MemoryToolsDeps): RunnableTool[] {
  const working = agent.memory.working && run.threadId ? [workingMemoryTool(agent, run, deps)] : [];
  const template = agent.memory.namespace;
  if (!agent.memory.tools || !template) return working;
  const namespace = fillNamespace(template, run.context);
  if (!namespace) return working;
  const context = (key: string) => ({ correlationId: run.id, causationId: memoryStream(namespace, key) });
  const remember: RunnableTool = {
    id: 'memory:remember',
    modelName: 'remember',
    description: `Remembers a value under a key in ${namespace}, for later runs (a key already there gets a new version).`,
    inputSchema: {
      type: 'object',
      properties: { key: { ...KEY_FIELD, description: 'Letters, digits, _ . - (default: a new key)' }, value: {} },
      required: ['value'],
    },
    async execute(input) {
      const { key = `note-${randomUUID().slice(0, 8)}`, value } = input as { key?: string; value: unknown };
      if (!KEY.test(key)) throw new Error('key must be letters, digits, "_", "." and "-" (at most 200)');
      if (value === undefined) throw new Error('value is required');
      if (Buffer.byteLength(JSON.stringify(value)) > MAX_MEMORY_VALUE_BYTES)
        throw new Error('value must be at most 64 KB');
      const put = { type: 'PutMemoryItem' as const, namespace, key, value, runId: run.id };
      const { state } = await deps.actors.send(memoryStream(namespace, key), memoryItemDecider, put, context(key));
      return { namespace, key, version: state!.version };
    },
  };
  const recall: RunnableTool = {
    id: 'memory:recall',
    modelName: 'recall',
    description: `Searches what is remembered in ${namespace}: the best matches, with their keys.`,
    inputSchema: { type: 'object', properties: { query: { type: 'string', maxLength: 1000 } }, required: ['query'] },
    async execute(input) {
      const query = String((input as { query?: unknown }).query ?? '');
      if (!matchExpression(query)) return [];
      const hits = await deps.memorySearch.search({ namespace, query, limit: 5, filter: {} });
      return hits.map(({ key, value, score }) => ({ key, value, score }));
    },
  };
  const forget: RunnableTool = {
    id: 'memory:forget',
    modelName: 'forget',
    description: `Forgets what is remembered under a key in ${namespace} (its history is kept).`,
    inputSchema: { type: 'object', properties: { key: KEY_FIELD }, required: ['key'] },
    async execute(input) {
      const key = String((input as { key?: unknown }).key ?? '');
      if (!KEY.test(key)) throw new Error('key must be letters, digits, "_", "." and "-" (at most 200)');
      try {
        await deps.actors.send(
          memoryStream(namespace, key),
          memoryItemDecider,
          { type: 'DeleteMemoryItem' },
          context(key),
        );
      } catch (error) {
        if (error instanceof DomainError && error.kind === 'not_found')
          throw new Error(`nothing is remembered as ${key}`);
        throw error;
      }
      return { forgotten: key };
    },
  };
  return [remember, recall, forget, ...working];
}

/**
 * `update_working_memory {document}`: replaces the thread's working memory (a memory item of `threads/<id>`, so
 * every version is kept), refused as a tool error when the document does not match the agent's schema.
 */
function workingMemoryTool(agent: Agent, run: AgentRunAggregate, deps: MemoryToolsDeps): RunnableTool {
  const { namespace, key } = workingMemoryOf(run.threadId!);
  const schema = agent.memory.working?.schema;
  return {
    id: 'memory:update_working_memory',
    modelName: 'update_working_memory',
    description: 'Replaces your working memory of this conversation with `document` (you see it every turn).',
    inputSchema: {
      type: 'object',
      properties: { document: schema ?? { type: 'object' } },
      required: ['document'],
    },
    async execute(input) {
      const { document } = (input ?? {}) as { document?: unknown };
      if (document === null || typeof document !== 'object' || Array.isArray(document)) {
        throw new Error('document must be an object');
      }
      const errors = schema ? await schemaErrors(schema, document) : [];
      if (errors.length) {
        const problems = errors.map((error) => `${error.path || 'document'} ${error.message}`).join('; ');
        throw new Error(`the document does not match the working memory's schema: ${problems}`);
      }
      if (Buffer.byteLength(JSON.stringify(document)) > MAX_MEMORY_VALUE_BYTES)
        throw new Error('document must be at most 64 KB');
      const put = { type: 'PutMemoryItem' as const, namespace, key, value: document, runId: run.id };
      const context = { correlationId: run.id, causationId: memoryStream(namespace, key) };
      const { state } = await deps.actors.send(memoryStream(namespace, key), memoryItemDecider, put, context);
      return { namespace, key, version: state!.version };
    },
  };
}
