import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentsProjection } from '../agents/queries/agents.projection';
import { AgentsReadModel } from '../agents/queries/agents.read-model';
import { RecordedEvent } from '../event-store/event-store';
import { WorkflowsProjection } from '../workflows/queries/workflows.projection';
import { WorkflowsReadModel } from '../workflows/queries/workflows.read-model';
import { ProjectionRunner } from './projection-runner';
import { openReadDatabase } from './read-database';

const AT = '2026-01-01T00:00:00.000Z';
const AGENT = 'agent_01';
const WF = 'wf_01';
const RUN = 'wfrun_01';
const STEP_RUN = 'agentrun_01';
const steps = [{ agent: 'writer', action: 'Write about {{input.topic}}' }];
const ended = { usage: null, attempts: 1, endedAt: AT };

/** A workflow run of one step from trigger to end, with its agent run, and an agent run of its own. */
const history: Array<[string, string, Record<string, unknown>]> = [
  [
    `agent-${AGENT}`,
    'AgentCreated',
    { id: AGENT, name: 'writer', model: 'a/b', instructions: '', tools: [], createdAt: AT },
  ],
  [
    `agent-${AGENT}`,
    'AgentUpdated',
    { agentId: AGENT, changes: { instructions: 'Be brief.' }, version: 2, updatedAt: AT },
  ],
  [`workflow-${WF}`, 'WorkflowCreated', { id: WF, name: 'w', trigger: { type: 'manual' }, steps, createdAt: AT }],
  [
    `workflow-${WF}`,
    'WorkflowTriggered',
    { workflowId: WF, runId: RUN, input: { topic: 'x' }, trigger: { type: 'manual' }, triggeredAt: AT },
  ],
  [
    `workflowrun-${RUN}`,
    'WorkflowRunQueued',
    { id: RUN, workflowId: WF, input: { topic: 'x' }, trigger: { type: 'manual' }, createdAt: AT },
  ],
  [`workflowrun-${RUN}`, 'WorkflowRunStarted', { runId: RUN, workflowName: 'w', steps, startedAt: AT }],
  [
    `workflowrun-${RUN}`,
    'WorkflowStepStarted',
    { runId: RUN, index: 0, agent: 'writer', task: 'Write about x', agentRunId: STEP_RUN, startedAt: AT },
  ],
  [
    `agentrun-${STEP_RUN}`,
    'AgentRunQueued',
    { id: STEP_RUN, agentId: AGENT, task: 't', context: {}, workflowRunId: RUN, stepIndex: 0, createdAt: AT },
  ],
  [`agentrun-${STEP_RUN}`, 'AgentRunStarted', { runId: STEP_RUN, executorId: 'e', warnings: [], startedAt: AT }],
  [
    `agentrun-${STEP_RUN}`,
    'AgentRunToolCalled',
    { runId: STEP_RUN, callId: 'c', tool: 'current_time', input: {}, at: AT },
  ],
  [
    `agentrun-${STEP_RUN}`,
    'AgentRunToolReturned',
    { runId: STEP_RUN, callId: 'c', tool: 'current_time', output: 'now', at: AT },
  ],
  [
    `agentrun-${STEP_RUN}`,
    'AgentRunSucceeded',
    { runId: STEP_RUN, ...ended, output: 'done', workflowRunId: RUN, stepIndex: 0 },
  ],
  [
    `workflowrun-${RUN}`,
    'WorkflowStepEnded',
    { runId: RUN, index: 0, status: 'succeeded', output: 'done', endedAt: AT },
  ],
  [`workflowrun-${RUN}`, 'WorkflowRunSucceeded', { runId: RUN, output: 'done', endedAt: AT }],
  [
    'agentrun-agentrun_02',
    'AgentRunQueued',
    { id: 'agentrun_02', agentId: AGENT, task: 't', context: {}, createdAt: AT },
  ],
  ['agentrun-agentrun_02', 'AgentRunCancelled', { runId: 'agentrun_02', ...ended }],
];

const events: RecordedEvent[] = history.map(([stream, type, data], i) => ({
  id: `event-${i}`,
  type,
  stream,
  revision: 0n,
  position: BigInt(i + 1),
  data,
  metadata: { schemaVersion: 1 },
  recordedAt: new Date(AT),
}));

describe('projections, batch by batch', () => {
  let folder: string;
  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'projections-'))));
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  /** Every row of the read models after the projections applied `batches` (each in one transaction). */
  function project(name: string, batches: RecordedEvent[][]) {
    const db = openReadDatabase(join(folder, `${name}.sqlite`));
    const runner = undefined as unknown as ProjectionRunner;
    const projections = [
      new AgentsProjection(new AgentsReadModel(db), runner),
      new WorkflowsProjection(new WorkflowsReadModel(db), runner),
    ];
    for (const batch of batches) db.transaction(() => projections.forEach((p) => p.applyBatch(batch)))();
    const tables = ['agents', 'agent_runs', 'workflows', 'workflow_runs'];
    const rows = Object.fromEntries(tables.map((t) => [t, db.prepare(`SELECT * FROM ${t} ORDER BY id`).all()]));
    db.close();
    return rows;
  }

  it('leaves the same rows whether a batch holds one event or all of them, or some of them', () => {
    const oneByOne = project(
      'one-by-one',
      events.map((event) => [event]),
    );
    expect(project('whole', [events])).toEqual(oneByOne);
    expect(project('halves', [events.slice(0, 9), events.slice(9)])).toEqual(oneByOne);

    const doc = (table: string, id: string) =>
      JSON.parse((oneByOne[table] as Array<{ id: string; doc: string }>).find((row) => row.id === id)!.doc);
    expect(doc('agent_runs', STEP_RUN)).toMatchObject({ status: 'succeeded', toolCalls: [{ id: 'c', output: 'now' }] });
    expect(doc('agent_runs', 'agentrun_02')).toMatchObject({ status: 'cancelled' });
    expect(doc('workflow_runs', RUN)).toMatchObject({ status: 'succeeded', output: 'done' });
    expect(oneByOne.workflow_runs).toEqual([expect.objectContaining({ id: RUN, stream_opened: 1 })]);
    expect(oneByOne.agents).toEqual([expect.objectContaining({ instructions: 'Be brief.', last_run: AT })]);
  });

  it("keeps a run's context and input in a column of their own, written once, and shows them with the run", () => {
    const db = openReadDatabase(join(folder, 'free-form.sqlite'));
    const agents = new AgentsReadModel(db);
    const workflows = new WorkflowsReadModel(db);
    const runner = undefined as unknown as ProjectionRunner;
    const projections = [new AgentsProjection(agents, runner), new WorkflowsProjection(workflows, runner)];
    const context = { items: [1, 2, 3], note: 'kept' };
    const withContext = events.map((event) =>
      event.type === 'AgentRunQueued' && event.data.id === STEP_RUN
        ? { ...event, data: { ...event.data, context } }
        : event,
    );
    // The run's later events come in batches of their own: each rewrites the run's document, not its context.
    db.transaction(() => projections.forEach((p) => p.applyBatch(withContext.slice(0, 8))))();
    db.transaction(() => projections.forEach((p) => p.applyBatch(withContext.slice(8))))();

    const row = (table: string, id: string) =>
      db.prepare(`SELECT * FROM ${table} WHERE id = ?`).get(id) as Record<string, string>;
    expect(JSON.parse(row('agent_runs', STEP_RUN).doc)).toMatchObject({ status: 'succeeded', context: null });
    expect(JSON.parse(row('agent_runs', STEP_RUN).context)).toEqual(context);
    expect(JSON.parse(row('workflow_runs', RUN).doc)).toMatchObject({ status: 'succeeded', input: null });
    expect(JSON.parse(row('workflow_runs', RUN).input)).toEqual({ topic: 'x' });

    expect(agents.getRunAggregate(STEP_RUN)).toMatchObject({ status: 'succeeded', context: null });
    expect(agents.getRun(AGENT, STEP_RUN)).toMatchObject({ status: 'succeeded', context });
    expect(agents.listRuns(AGENT, undefined, '', 10).items.map((run) => run.context)).toEqual([context, {}]);
    expect(workflows.getRun(WF, RUN)).toMatchObject({ status: 'succeeded', input: { topic: 'x' } });
    expect(workflows.listRuns(WF, undefined, '', 10).items.map((run) => run.input)).toEqual([{ topic: 'x' }]);
    // The answer keeps its fields in their usual order.
    const keys = Object.keys(agents.getRun(AGENT, STEP_RUN)!);
    expect(keys.indexOf('context')).toBe(keys.indexOf('task') + 1);
    db.close();
  });

  /** Events in log order, from [stream, type, data] triples. */
  const recorded = (triples: Array<[string, string, Record<string, unknown>]>, from = 1): RecordedEvent[] =>
    triples.map(([stream, type, data], i) => ({
      ...events[0],
      id: `e-${from + i}`,
      stream,
      type,
      data,
      position: BigInt(from + i),
    }));
  const at = (minute: number) => `2026-01-01T00:0${minute}:00.000Z`;
  const trigger = (runId: string, minute: number, scheduled: boolean): [string, string, Record<string, unknown>] => [
    `workflow-${WF}`,
    'WorkflowTriggered',
    {
      workflowId: WF,
      runId,
      input: {},
      trigger: scheduled ? { type: 'schedule', scheduledFor: at(minute) } : { type: 'manual' },
      triggeredAt: at(minute),
    },
  ];
  const queued = (runId: string, minute: number): [string, string, Record<string, unknown>] => [
    `workflowrun-${runId}`,
    'WorkflowRunQueued',
    { id: runId, workflowId: WF, input: {}, trigger: { type: 'manual' }, createdAt: at(minute) },
  ];

  it('keeps the latest run of each workflow and agent, and the order of ticks and skips, within one batch', () => {
    const busy = recorded([
      history[0],
      [
        `workflow-${WF}`,
        'WorkflowCreated',
        { id: WF, name: 'w', trigger: { type: 'schedule', cron: '* * * * *', timezone: 'UTC' }, steps, createdAt: AT },
      ],
      trigger('wfrun_1', 1, true),
      queued('wfrun_1', 1),
      trigger('wfrun_2', 2, false),
      [
        `workflow-${WF}`,
        'ScheduledRunsSkipped',
        { workflowId: WF, first: at(3), last: at(4), count: 2, skippedAt: at(5) },
      ],
      trigger('wfrun_3', 5, false),
      [
        'agentrun-agentrun_1',
        'AgentRunQueued',
        { id: 'agentrun_1', agentId: AGENT, task: 't', context: {}, createdAt: at(2) },
      ],
      [
        'agentrun-agentrun_2',
        'AgentRunQueued',
        { id: 'agentrun_2', agentId: AGENT, task: 't', context: {}, createdAt: at(1) },
      ],
    ]);
    const oneByOne = project(
      'one-by-one',
      busy.map((event) => [event]),
    );
    expect(project('whole', [busy])).toEqual(oneByOne);
    expect(oneByOne.workflows).toEqual([expect.objectContaining({ last_run: at(5), last_scheduled_for: at(4) })]);
    expect(oneByOne.agents).toEqual([expect.objectContaining({ last_run: at(2) })]);
    expect(
      oneByOne.workflow_runs.map((row) => [
        (row as { id: string }).id,
        (row as { stream_opened: number }).stream_opened,
      ]),
    ).toEqual([
      ['wfrun_1', 1],
      ['wfrun_2', 0],
      ['wfrun_3', 0],
    ]);
  });

  it('leaves a run as it is when its trigger is applied again, marking its stream opened at most', () => {
    const first = recorded(
      [history[2], trigger('wfrun_1', 1, false), history[4], history[5]].map(
        ([stream, type, data]): [string, string, Record<string, unknown>] =>
          type === 'WorkflowRunQueued' || type === 'WorkflowRunStarted'
            ? [`workflowrun-wfrun_1`, type, { ...data, id: 'wfrun_1', runId: 'wfrun_1' }]
            : [stream, type, data],
      ),
    );
    const again = recorded([trigger('wfrun_1', 1, false), queued('wfrun_1', 1)], 10);
    const rows = project('again', [first, again]);
    expect(rows.workflow_runs).toEqual([
      expect.objectContaining({ id: 'wfrun_1', status: 'running', stream_opened: 1 }),
    ]);
  });
});
