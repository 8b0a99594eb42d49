'use strict';
// Hostile workflows (findings 5, 10 and 11a of issue 32): JSON Logic rules that cost much for their size, a large
// input, a task that copies a 1 MiB input. Each case creates its workflow, triggers it and waits for the run's end
// against a scripted model (all measured), then reads the run once: how it ended (a hostile rule or task fails its
// step, with the step's error code).
const { call } = require('./http');
const { withScriptedModel, warmAgent, ended } = require('./model');

const range = (n) => Array.from({ length: n }, (_, i) => i);

/** A case: the workflow's steps and the input it is triggered with. */
function workflowCase(steps, input) {
  return withScriptedModel({
    prepare: warmAgent,
    run: async ({ url, write, read }) => {
      const created = await call(url, 'POST', '/v1/workflows', write, { name: 'hostile', steps }, [201, 400]);
      if (created.status === 400) return `create 400: ${created.body.errors?.[0]?.message ?? created.body.title}`;
      const run = await call(url, 'POST', `/v1/workflows/${created.body.id}/trigger`, write, { input });
      await ended({ url, read }, `workflowrun-${run.body.id}`, 'WorkflowRun');
      const done = (await call(url, 'GET', `/v1/workflows/${created.body.id}/runs/${run.body.id}`, read)).body;
      const error = done.error ? ` (${done.steps.find((s) => s.error)?.error?.code ?? done.error.code})` : '';
      return `run ${done.status}${error}`;
    },
  });
}

const CASES = {
  /** `some` over a 20,000-item input, `in` over a 20,000-item literal. */
  'workflow-some-in': workflowCase(
    [{ agent: 'bench', action: 'x', when: { some: [{ var: 'input.items' }, { in: [{ var: '' }, range(20_000)] }] } }],
    { items: range(20_000).map((i) => -i - 1) },
  ),
  /** `some` over a 20,000-item input, `in` over a 1,000-item literal. */
  'workflow-some-in-1000': workflowCase(
    [{ agent: 'bench', action: 'x', when: { some: [{ var: 'input.items' }, { in: [{ var: '' }, range(990)] }] } }],
    { items: range(20_000).map((i) => -i - 1) },
  ),
  /** Three nested `map`s over 150-item literals. */
  'workflow-nested-maps': workflowCase(
    [
      {
        agent: 'bench',
        action: 'x',
        when: { map: [range(150), { map: [range(150), { map: [range(150), { var: '' }] }] }] },
      },
    ],
    {},
  ),
  /**
   * An input of about 1 MiB holding nearly the most values a body may (24,000 strings of 40 characters), a step
   * without context (the one with `context: "all"` is in body-cases.js).
   */
  'workflow-big-input': workflowCase([{ agent: 'bench', action: 'x' }], {
    items: range(24_000).map((i) => `${i}`.padStart(40, 'x')),
  }),
  /** `x {{input}}` with a 1 MiB input, then a step reading it five times. */
  'workflow-task-1mib': workflowCase(
    [
      { id: 'a', agent: 'bench', action: 'x {{input}}' },
      { id: 'b', agent: 'bench', action: '{{input}} {{input}} {{input}} {{input}} {{input}}', needs: ['a'] },
    ],
    { text: 'y'.repeat(1_000_000 - 20) },
  ),
};

module.exports = { CASES };
