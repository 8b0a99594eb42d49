'use strict';
// User-given JSON Schemas that used to stall the process (issue "No request can stall or crash the service",
// findings 3, 4 and 10): for each, the longest event-loop stall (a 1 ms timer probe in this process) and the time
// taken while the service's own code checks the schema as a create or update does (outputSchemaErrors) and checks a
// model's answer against it as a run does (checkAnswer; a schema refused at create is checked too, as one stored
// before the bounds would be). Goal: no stall over 50 ms (20 ms as a moonshot).
// Usage: npx tsc -p tsconfig.build.json && node bench/hostile-schemas.js
const { outputSchemaErrors } = require('../dist/agents/create-agent/agent-definition');
const { checkAnswer } = require('../dist/models/structured-answer');

const GOAL_MS = 50;

/** Runs `operation` (sync or async) while a 1 ms timer records the longest gap between its ticks. */
async function probed(operation) {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  await new Promise((resolve) => setTimeout(resolve, 5));
  last = performance.now();
  const started = performance.now();
  const result = await operation();
  const tookMs = performance.now() - started;
  // One more tick, so that a stall at the very end is seen too.
  await new Promise((resolve) => setTimeout(resolve, 2));
  clearInterval(timer);
  longest = Math.max(longest, performance.now() - last);
  return { result, tookMs, stallMs: longest };
}

/** A fresh copy of `schema` (a `$comment` of its own), so that no compiled validator is reused between cases. */
let fresh = 0;
const unique = (schema) => ({ ...schema, $comment: `bench ${++fresh}` });

function chainOfDefs(count) {
  const $defs = {};
  for (let i = 0; i < count; i++) {
    $defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
  }
  $defs[`d${count}`] = { type: 'string' };
  return { type: 'object', properties: { x: { $ref: '#/$defs/d0' } }, $defs };
}

/** An ordinary but large schema: many properties, each with a few constraints, about `bytes` long as JSON. */
function largeSchema(bytes) {
  const properties = {};
  const schema = { type: 'object', properties, required: [] };
  for (let i = 0; JSON.stringify(schema).length < bytes; i++) {
    properties[`field_${i}`] = {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: `Field number ${i} of the catalogue record`,
    };
    if (i % 3 === 0) schema.required.push(`field_${i}`);
  }
  return schema;
}

const cases = [
  {
    name: 'pattern ^(a+)+$, answer of 29 a and a b',
    schema: { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } },
    answer: JSON.stringify({ s: `${'a'.repeat(29)}b` }),
  },
  {
    name: 'propertyNames ^(a|aa)+$, a key of 40 a and a b',
    schema: { type: 'object', propertyNames: { pattern: '^(a|aa)+$' } },
    answer: JSON.stringify({ [`${'a'.repeat(40)}b`]: 1 }),
  },
  {
    name: '23 $defs, each anyOf of two $refs to the next',
    schema: chainOfDefs(23),
    answer: JSON.stringify({ x: 1 }),
  },
  {
    name: 'uniqueItems over 9,000 distinct objects',
    schema: { type: 'object', properties: { list: { type: 'array', uniqueItems: true } } },
    answer: JSON.stringify({ list: Array.from({ length: 9000 }, (_, i) => ({ id: i, name: `item ${i}` })) }),
  },
  {
    name: '1,000 patterns \\p{L}{1000} (RE2 compiles each in ms)',
    schema: {
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: 1000 }, (_, i) => [`p${i}`, { type: 'string', pattern: `\\p{L}{1000}${i}` }]),
      ),
    },
    answer: JSON.stringify({ p0: 'x' }),
  },
  {
    name: 'a 52 KB schema (compiled at create)',
    schema: largeSchema(52 * 1024),
    answer: JSON.stringify({ field_0: 'x' }),
  },
];

async function main() {
  const rows = [];
  for (const { name, schema, answer } of cases) {
    const schemaCopy = unique(schema);
    const create = await probed(() => outputSchemaErrors(schemaCopy));
    const refused = create.result.length > 0;
    const row = {
      case: name,
      'create stall ms': create.stallMs.toFixed(1),
      'create ms': create.tookMs.toFixed(1),
      create: refused ? `400: ${create.result[0].message.slice(0, 90)}` : 'accepted',
    };
    // A refused schema is still checked, as one stored before the bounds were would be at run time.
    {
      const check = await probed(() => checkAnswer(schemaCopy, answer));
      const outcome = check.result;
      row['answer stall ms'] = check.stallMs.toFixed(1);
      row['answer ms'] = check.tookMs.toFixed(1);
      row.answer = 'errors' in outcome ? `invalid: ${outcome.errors[0]?.message.slice(0, 60)}` : 'valid';
    }
    rows.push(row);
    console.log(JSON.stringify(row));
  }
  const worst = Math.max(
    ...rows.map((row) => Math.max(Number(row['create stall ms']), Number(row['answer stall ms'] ?? 0))),
  );
  console.log(`longest stall ${worst.toFixed(1)} ms (goal < ${GOAL_MS} ms): ${worst < GOAL_MS ? 'met' : 'NOT met'}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
