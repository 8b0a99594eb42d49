/**
 * A subscriber that follows every workflow straight from EventStoreDB/KurrentDB, without going through the
 * service: `$ce-workflow` is the category stream the server's system projections keep, with a link to each
 * event of every `workflow-<id>` stream; `resolveLinkTos` hands over the events themselves.
 *
 *   EVENTSTORE_URL='esdb://localhost:2113?tls=false' npx tsx examples/subscribe-to-workflows.ts
 *
 * The stream names (`workflow-<id>`, `workflowrun-<id>`, `agent-<id>`, `agentrun-<id>`) and event types are a
 * stable contract (see docs/event-types.md). A service started with STREAM_PREFIX writes
 * `<prefix>-workflow-<id>`: its category is then the prefix.
 */
import { EventStoreDBClient, JSONEventType, START } from '@eventstore/db-client';

type Metadata = { correlationId?: string; causationId?: string; schemaVersion: number };

/** The events of a `workflow-<id>` stream (schema version 1). */
export type WorkflowEvent =
  | JSONEventType<
      'WorkflowCreated',
      {
        id: string;
        name: string;
        trigger: { type: 'manual' } | { type: 'schedule'; cron: string; timezone: string };
        steps: Array<{ agent: string; action: string }>;
        createdAt: string;
      },
      Metadata
    >
  | JSONEventType<
      'WorkflowTriggered',
      {
        workflowId: string;
        runId: string;
        input: Record<string, unknown>;
        trigger: { type: 'manual' } | { type: 'schedule'; scheduledFor: string };
        triggeredAt: string;
      },
      Metadata
    >
  | JSONEventType<'WorkflowPaused', { workflowId: string; pausedAt: string }, Metadata>
  | JSONEventType<'WorkflowResumed', { workflowId: string; resumedAt: string }, Metadata>
  | JSONEventType<
      'ScheduledRunsSkipped',
      { workflowId: string; first: string; last: string; count: number | null; skippedAt: string },
      Metadata
    >;

/**
 * Calls `handle` with each workflow event after `checkpoint` (a revision of `$ce-workflow`; undefined: from the
 * start), then live, in order. Store the checkpoint it passes with your own writes to resume after a restart.
 */
export async function followWorkflows(
  client: EventStoreDBClient,
  checkpoint: bigint | undefined,
  handle: (event: WorkflowEvent & { stream: string }, checkpoint: bigint) => Promise<void>,
): Promise<void> {
  const subscription = client.subscribeToStream<WorkflowEvent>('$ce-workflow', {
    // The subscription starts after this revision.
    fromRevision: checkpoint ?? START,
    resolveLinkTos: true,
  });
  for await (const resolved of subscription) {
    // A link whose event was deleted resolves to nothing.
    if (!resolved.event) continue;
    const { type, data, metadata, streamId } = resolved.event;
    const position = resolved.link?.revision ?? resolved.event.revision;
    await handle({ type, data, metadata, stream: streamId } as WorkflowEvent & { stream: string }, position);
  }
}

async function main(): Promise<void> {
  const client = EventStoreDBClient.connectionString(process.env.EVENTSTORE_URL ?? 'esdb://localhost:2113?tls=false');
  await followWorkflows(client, undefined, async (event, checkpoint) => {
    if (event.type === 'WorkflowTriggered') {
      process.stdout.write(`${checkpoint} run ${event.data.runId} of ${event.data.workflowId}\n`);
    } else {
      process.stdout.write(`${checkpoint} ${event.type} on ${event.stream}\n`);
    }
  });
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
