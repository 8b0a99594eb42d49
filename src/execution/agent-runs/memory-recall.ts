import type { ModelMessage } from 'ai';
import type { Agent, AgentMemory } from '../../agents/agent';
import type { ModelAttempt } from '../../domain/run';
import { SummaryDeps, threadSummary } from './thread-summary';

type AgentLoopModule = typeof import('../agent-loop/agent-loop');
import type { RecordRecall } from '../../agents/agent-run/agent-run.commands';
import type { AgentRunAggregate } from '../../agents/agent-run/agent-run.state';
import type { MemoryHit, MemorySearch } from '../../memory/queries/memory-search';
import type { MemoryReadModel, MemoryView } from '../../memory/queries/memory.read-model';
import type { Clock } from '../../shared/clock';
import { fillNamespace } from '../../shared/memory-namespace';

/** What recall needs: the memory read model and search, the time, and who executes the run. */
export interface RecallDeps {
  memory: MemoryReadModel;
  memorySearch: MemorySearch;
  clock: Clock;
  executorId: string;
}

/** Where a thread's working memory is kept: a memory item of the thread's own namespace. */
export const workingMemoryOf = (threadId: string) => ({ namespace: `threads/${threadId}`, key: 'working-memory' });

/**
 * The memory a run is given before it begins, before its thread's window: the thread's working memory, the summary
 * of the messages before the window (`window`: its length; null after a handoff, which sends no window), and what it
 * recalls (see below).
 */
export async function memoryMessages(
  run: AgentRunAggregate,
  agent: Agent,
  deps: RecallDeps &
    SummaryDeps & { loop: AgentLoopModule; signal: AbortSignal; window: number | null; attempts: ModelAttempt[] },
  record: (command: RecordRecall) => Promise<void>,
): Promise<ModelMessage[]> {
  const { loop, signal, window, attempts } = deps;
  const summary = window === null ? [] : await threadSummary(run, agent, window, deps, loop, signal, attempts);
  const recalled = await recalledMemory(run, agent.memory, deps, record, signal);
  return [...workingMemory(run, agent.memory, deps), ...summary, ...recalled];
}

/** On a thread of an agent with `memory.working`: the document as it stands, or that there is none yet. */
function workingMemory(run: AgentRunAggregate, memory: AgentMemory, deps: RecallDeps): ModelMessage[] {
  if (!memory.working || !run.threadId) return [];
  const { namespace, key } = workingMemoryOf(run.threadId);
  const document = deps.memory.get(namespace, key, deps.clock.now())?.value;
  const content =
    document === undefined
      ? 'Your working memory of this conversation is empty: keep what matters in it with update_working_memory.'
      : `Your working memory of this conversation (update it with update_working_memory):\n${JSON.stringify(document)}`;
  return [{ role: 'system', content }];
}

/**
 * The memory a run recalls before it begins, as one system message listing each item with its key: the items of
 * its agent's namespace (filled in from the run's context) that best match its task, at most `recall.limit`, those
 * scoring at least `recall.minScore`. Which were given is recorded on the run once; a run resumed (after approvals,
 * say) is given the same versions again. None: no recall, a context without the namespace's fields, or no match.
 */
async function recalledMemory(
  run: AgentRunAggregate,
  memory: AgentMemory,
  deps: RecallDeps,
  record: (command: RecordRecall) => Promise<void>,
  signal: AbortSignal,
): Promise<ModelMessage[]> {
  if (run.recalled) {
    const again = run.recalled.map((item) => deps.memory.version(item.namespace, item.key, item.version));
    return asMessage(again.filter((item): item is MemoryView => item !== undefined));
  }
  const { namespace: template, recall } = memory;
  if (!template || !recall) return [];
  const namespace = fillNamespace(template, run.context);
  if (!namespace) return [];
  const found = await recallSearch(namespace, run.task, recall.limit, deps, signal);
  const hits = found.filter((hit) => hit.score >= (recall.minScore ?? 0));
  const items = hits.map(({ namespace: at, key, version, score }) => ({ namespace: at, key, version, score }));
  await record({ type: 'RecordRecall', executorId: deps.executorId, namespace, items });
  return asMessage(hits);
}

/**
 * The items that best match the task: by meaning when `EMBEDDING_MODEL` is set (scores are cosine similarities),
 * else by words (BM25). When the embedding model fails, by words, rather than failing the run.
 */
async function recallSearch(
  namespace: string,
  task: string,
  limit: number,
  { memorySearch }: RecallDeps,
  signal: AbortSignal,
): Promise<MemoryHit[]> {
  const request = { namespace, query: task, limit, filter: {} };
  if (!memorySearch.semantic) return memorySearch.search({ ...request, mode: 'keyword' });
  try {
    return await memorySearch.search({ ...request, mode: 'semantic' }, signal);
  } catch (error) {
    if (signal.aborted) throw error;
    return memorySearch.search({ ...request, mode: 'keyword' });
  }
}

function asMessage(items: MemoryView[]): ModelMessage[] {
  if (!items.length) return [];
  const lines = items.map((item) => `- ${item.namespace}/${item.key}: ${JSON.stringify(item.value)}`);
  const content = `What you remember that may bear on this task (memory items, by key):\n${lines.join('\n')}`;
  return [{ role: 'system', content }];
}
