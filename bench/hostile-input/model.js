'use strict';
// Cases whose runs call a model: a scripted model (bench/scripted-model.js) answers at once. Its port is only known
// once it listens, so such a case's `env` is a function the runner awaits before it starts the service; the model
// is stopped by the case's `close`, which the runner calls in the end whatever happened.
const { startScriptedModel } = require('../scripted-model');
const { call } = require('./http');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The case with a scripted model behind the `openai-compatible` provider (answering `answer`, or a short text);
 * `prepare` gets it as `context.model`.
 */
function withScriptedModel({ prepare, run, answer }) {
  let model;
  return {
    env: async () => {
      model = await startScriptedModel({ delayMs: 0, ...(answer ? { text: [answer] } : {}) });
      return { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl };
    },
    prepare: (context) => prepare({ ...context, model }),
    run,
    close: () => model?.close(),
  };
}

/** An agent on the scripted model, with one run done, so that what is loaded on first use is not counted. */
async function warmAgent({ url, write, read }) {
  const agent = await call(url, 'POST', '/v1/agents', write, { name: 'bench', model: 'openai-compatible/bench' });
  const run = await call(url, 'POST', `/v1/agents/${agent.body.id}/run`, write, { task: 'warm up' });
  await ended({ url, read }, `agentrun-${run.body.id}`, 'AgentRun');
  return agent.body.id;
}

/**
 * Waits for a run's end by its stream's small ending event (polling the run itself would return its whole input
 * each time, and that answer's cost would be counted): the ending event's type.
 */
async function ended({ url, read }, stream, prefix) {
  const types = ['Succeeded', 'Failed', 'Cancelled'].map((end) => prefix + end).join(',');
  for (const started = Date.now(); Date.now() - started < 300_000; await sleep(50)) {
    const page = await call(url, 'GET', `/v1/events?stream=${stream}&types=${types}&order=desc&limit=1`, read);
    if (page.body.events.length > 0) return page.body.events[0].type;
  }
  throw new Error(`${stream} not ended after 300 s`);
}

module.exports = { withScriptedModel, warmAgent, ended };
