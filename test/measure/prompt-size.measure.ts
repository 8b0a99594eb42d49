/**
 * Measures the prompts of the README's digest workflow (not part of `npm test`; run `npm run measure:prompts`):
 * runs it through the service against the scripted model server, whose answers are of a realistic length, and
 * prints the characters of the user message each step sent: by default (the task alone), with `context: "all"`,
 * and as the service sent them before steps chose their context (the task, then a "Context (JSON)" holding the
 * workflow, the input and every earlier step with its action and output; rebuilt here from the same run).
 */
import {
  ChatCompletionsBody,
  ScriptedServer,
  lastUserMessage,
  startScriptedOpenAIServer,
} from '../support/scripted-model-server';
import { startTestApp } from '../support/test-app';

const ANSWERS = [
  '1. Cron is a time-based job scheduler in Unix-like systems, dating from Version 7 Unix (1979).\n' +
    '2. A crontab line has five fields: minute, hour, day of month, month and day of week, then the command.\n' +
    '3. When both day fields are restricted, a job runs when either matches, which surprises many users.',
  'Cron has scheduled work on Unix-like systems since Version 7 Unix in 1979. Each crontab line names five ' +
    'fields (minute, hour, day of month, month and day of week) followed by the command to run, so "0 9 * * 1-5" ' +
    'means nine in the morning on weekdays. One rule catches many people out: when both the day-of-month and ' +
    'the day-of-week fields are restricted, the job runs on a day that matches either of them, not only on days ' +
    "that match both. Knowing that, and that times follow the machine's time zone unless told otherwise, covers " +
    'most of what a newcomer needs to write a schedule that fires when they expect.',
  'Cron, on Unix since 1979, runs jobs on five-field schedules such as "0 9 * * 1-5". Mind that two restricted ' +
    "day fields match either day, and that times follow the machine's zone.",
];

const DIGEST = [
  { agent: 'researcher', action: 'List three facts about {{input.topic}}' },
  { agent: 'writer', action: 'Write a paragraph from these facts: {{steps.0.output}}' },
  { agent: 'editor', action: 'Shorten this to two sentences: {{steps.1.output}}' },
];

jest.setTimeout(120_000);

it('reports the prompt size of each step of the README digest workflow', async () => {
  let answer = 0;
  const model: ScriptedServer<ChatCompletionsBody> = await startScriptedOpenAIServer(() => ({
    kind: 'text',
    text: ANSWERS[answer++ % ANSWERS.length],
  }));
  const app = await startTestApp({ env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl } });
  try {
    for (const name of ['researcher', 'writer', 'editor']) {
      await app.request('POST', '/v1/agents', { name, model: 'openai-compatible/llama3.2' });
    }
    const sizes = async (context?: string) => {
      answer = 0;
      model.requests.length = 0;
      const steps = DIGEST.map((step) => ({ ...step, ...(context && { context }) }));
      const workflow = (await app.request('POST', '/v1/workflows', { name: `digest ${context ?? 'default'}`, steps }))
        .body;
      const input = { topic: 'cron' };
      const run = await app.request('POST', `/v1/workflows/${workflow.id}/trigger`, { input }, { prefer: 'wait=30' });
      expect(run.body.status).toBe('succeeded');
      return { run: run.body, sent: model.requests.map((body) => lastUserMessage(body).length) };
    };
    const byDefault = await sizes();
    const all = await sizes('all');
    const run = byDefault.run;
    // As the service built each step's message before: the task, then the whole context as indented JSON.
    const before: number[] = run.steps.map((step: { task: string }, index: number) => {
      const context = {
        workflow: { id: run.workflowId, name: 'digest', runId: run.id },
        input: run.input,
        steps: run.steps
          .slice(0, index)
          .map(({ agent, action, output }: { agent: string; action: string; output: string }) => ({
            agent,
            action,
            output,
          })),
      };
      return `${step.task}\n\nContext (JSON):\n${JSON.stringify(context, null, 2)}`.length;
    });
    const total = (list: number[]) => list.reduce((sum, n) => sum + n, 0);
    const rows = [
      ['before (every step got the whole context)', before],
      ['now, by default (the task alone)', byDefault.sent],
      ['now, with context: "all"', all.sent],
    ] as Array<[string, number[]]>;
    const lines = rows.map(
      ([label, list]) => `${label.padEnd(44)} ${list.map((n) => String(n).padStart(6)).join('')}  total ${total(list)}`,
    );
    console.log(
      [
        'README digest workflow: characters of the user message sent by step',
        ''.padEnd(44) + '     0     1     2',
        ...lines,
      ].join('\n'),
    );
    expect(byDefault.sent[2]).toBeLessThan(before[2]);
  } finally {
    await app.close();
    await model.close();
  }
});
