'use strict';
// Large bodies within the 1 MiB limit (finding 10 of issue 32): runs and workflow runs whose free-form context or
// input is large, and a workflow whose steps each need all earlier ones. Each case runs to its end against a
// scripted model, then reads the run once (its answer holds the whole context or input). A body holds at most
// JSON_MAX_VALUES (100,000) values: the cases at that limit are the largest accepted, and the half-million-item
// body of the finding is refused.
const { call } = require('./http');
const { withScriptedModel, warmAgent, ended } = require('./model');

const range = (n) => Array.from({ length: n }, (_, i) => i);

/** A run of the agent with `context`, to its end, then read once: how it ended and the answer's size. */
async function agentRun({ url, write, read }, agentId, context) {
  const run = await call(url, 'POST', `/v1/agents/${agentId}/run`, write, { task: 'hold this', context });
  const end = await ended({ url, read }, `agentrun-${run.body.id}`, 'AgentRun');
  const got = await call(url, 'GET', `/v1/agents/${agentId}/runs/${run.body.id}`, read);
  return `${end}, GET ${(got.bytes / 2 ** 20).toFixed(2)} MB`;
}

/** A run of the workflow with `input`, to its end, then read once. */
async function workflowRun({ url, write, read }, workflowId, input) {
  const run = await call(url, 'POST', `/v1/workflows/${workflowId}/trigger`, write, { input });
  const end = await ended({ url, read }, `workflowrun-${run.body.id}`, 'WorkflowRun');
  const got = await call(url, 'GET', `/v1/workflows/${workflowId}/runs/${run.body.id}`, read);
  return `${end}, GET ${(got.bytes / 2 ** 20).toFixed(2)} MB`;
}

/** The most items an array in a run's context may have: the body's other values are `task`, `context` and `items`. */
const MOST_ITEMS = 100_000 - 3;

const CASES = {
  /** A run whose context holds a 500,000-item array (about 1 MB): refused with a 413 before it is parsed. */
  'run-context-500k-items': withScriptedModel({
    prepare: warmAgent,
    run: async ({ url, write }, agentId) => {
      const context = { items: range(500_000).map(() => 0) };
      const run = await call(url, 'POST', `/v1/agents/${agentId}/run`, write, { task: 'x', context }, [413]);
      return `${run.status} ${run.body.type}`;
    },
  }),
  /** A run whose context holds the largest array a body may: 99,997 items. */
  'run-context-most-items': withScriptedModel({
    prepare: warmAgent,
    run: (context, agentId) => agentRun(context, agentId, { items: range(MOST_ITEMS).map(() => 0) }),
  }),
  /** A run whose context is an object of the most keys a body may hold: 99,998. */
  'run-context-most-keys': withScriptedModel({
    prepare: warmAgent,
    run: (context, agentId) =>
      agentRun(context, agentId, Object.fromEntries(range(MOST_ITEMS + 1).map((i) => [`k${100_000 + i}`, 0]))),
  }),
  /** A workflow run whose input holds the largest array a body may, its step given `context: "all"`. */
  'workflow-input-most-context-all': withScriptedModel({
    prepare: async (context) => {
      await warmAgent(context);
      const steps = [{ agent: 'bench', action: 'x', context: 'all' }];
      const workflow = await call(context.url, 'POST', '/v1/workflows', context.write, { name: 'big', steps });
      return workflow.body.id;
    },
    run: (context, workflowId) => workflowRun(context, workflowId, { items: range(MOST_ITEMS - 1).map(() => 0) }),
  }),
  /** A workflow of 100 steps, each needing all earlier ones (4,950 `needs`), created and run. */
  'workflow-needs-all-100': withScriptedModel({
    prepare: warmAgent,
    run: async (context) => {
      const steps = range(100).map((i) => ({
        id: `s${i}`,
        agent: 'bench',
        action: i === 0 ? 'step 0' : `step ${i} after {{steps.s${i - 1}.output}}`,
        needs: range(i).map((j) => `s${j}`),
      }));
      const workflow = await call(context.url, 'POST', '/v1/workflows', context.write, { name: 'needs', steps });
      return workflowRun(context, workflow.body.id, {});
    },
  }),
};

module.exports = { CASES };
