'use strict';
// What sealing content under a subject's key costs. One SQLite service with DATA_KEY_SECRET, its runs on a scripted
// model that answers at once (bench/scripted-model.js, a test double); `POST /v1/agents/{id}/run` with
// `Prefer: wait=30` (the whole run: queued, executed, its answer recorded, each event about the subject sealed), at
// `connections` at a time, round robin over 20 agents. Slices of `seconds` take turns: runs whose context names a
// subject (a new one per 100 runs, so keys are made too), and runs without one, on the same service. Figure: runs a
// second with a subject ÷ without, over all slices (goal: ≥ 0.9, encryption costing < 10 %).
// Usage: npm run build:bench && node bench/subject-sealing.js [seconds=3] [rounds=5] [connections=10]
const autocannon = require('autocannon');
const { join } = require('node:path');
const lib = require('./lib');
const { startScriptedModel } = require('./scripted-model');

const [seconds = 3, rounds = 5, connections = 10] = lib.positional().map(Number);

async function slice(url, agents, withSubject) {
  let n = 0;
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        setupRequest: (request) => {
          const i = n++;
          const context = withSubject ? { subjectId: `person-${Math.floor(i / 100)}`, plan: 'gold' } : { plan: 'gold' };
          return {
            ...request,
            path: `/v1/agents/${agents[i % agents.length]}/run`,
            headers: { 'content-type': 'application/json', prefer: 'wait=30' },
            body: JSON.stringify({
              task: `Answer briefly, bench-run-${i}: what is the plan for this customer?`,
              context,
            }),
          };
        },
      },
    ],
  });
  if (result.non2xx || result.errors) throw new Error(`${result.non2xx} answers not 2xx, ${result.errors} errors`);
  return result.requests.total;
}

async function main() {
  const model = await startScriptedModel();
  const server = await lib.startServer(join(__dirname, '..', 'dist', 'main.js'), {
    DATA_DIR: lib.temporaryDir('bench-subject-sealing-'),
    OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
    DATA_KEY_SECRET: 'a-benchmark-data-key-secret-of-32-characters-or-more',
  });
  try {
    console.log(`service on sqlite; ${lib.loadAverage()}`);
    const agents = [];
    for (let i = 0; i < 20; i++) {
      agents.push(
        (await lib.postJson(server.url, '/v1/agents', { name: `a${i}`, model: 'openai-compatible/bench' })).id,
      );
    }
    await slice(server.url, agents, false); // warm-up
    await slice(server.url, agents, true);
    const totals = { plain: 0, sealed: 0 };
    for (let r = 0; r < rounds; r++) {
      const plain = await slice(server.url, agents, false);
      const sealed = await slice(server.url, agents, true);
      totals.plain += plain;
      totals.sealed += sealed;
      console.log(
        `  round ${r + 1}: ${(plain / seconds).toFixed(0)} runs/s plain, ${(sealed / seconds).toFixed(0)} sealed`,
      );
    }
    const ratio = totals.sealed / totals.plain;
    const per = (total) => (total / (seconds * rounds)).toFixed(0);
    console.log(
      `runs with a subject: ${per(totals.sealed)}/s; without: ${per(totals.plain)}/s; ratio ${ratio.toFixed(3)} ` +
        `(goal ≥ 0.9); ${lib.loadAverage()}`,
    );
  } finally {
    await server.stop();
    await model.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
