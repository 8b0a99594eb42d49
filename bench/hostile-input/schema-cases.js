'use strict';
// Output schemas that used to stall the process (findings 3, 4 and 10 of issue 32): each agent is made with its
// schema (a schema refused at create is the answer: 400), then run against a scripted model whose answer is the
// hostile text, to the run's end.
const { call } = require('./http');
const { withScriptedModel, warmAgent, ended } = require('./model');

function chainOfDefs(count) {
  const $defs = {};
  for (let i = 0; i < count; i++)
    $defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
  $defs[`d${count}`] = { type: 'string' };
  return { type: 'object', properties: { x: { $ref: '#/$defs/d0' } }, $defs };
}

/** An ordinary but large schema: many properties with a few constraints each, about `bytes` long as JSON. */
function largeSchema(bytes) {
  const properties = {};
  const schema = { type: 'object', properties, required: [] };
  for (let i = 0; JSON.stringify(schema).length < bytes; i++) {
    properties[`field_${i}`] = { type: 'string', minLength: 1, maxLength: 200, description: `Field number ${i}` };
    if (i % 3 === 0) schema.required.push(`field_${i}`);
  }
  return schema;
}

/** A case: the agent made with `schema` (measured), then, when accepted, one run answered with `answer`. */
function schemaCase(schema, answer) {
  return withScriptedModel({
    answer,
    // A first run loads the model code, so that what is loaded on first use is not counted.
    prepare: warmAgent,
    run: async ({ url, write, read }) => {
      const created = await call(
        url,
        'POST',
        '/v1/agents',
        write,
        {
          name: 'schema',
          model: 'openai-compatible/bench',
          outputSchema: schema,
        },
        [201, 400],
      );
      if (created.status === 400)
        return `create 400: ${created.body.errors?.[0]?.path}: ${created.body.errors?.[0]?.message}`;
      const run = await call(url, 'POST', `/v1/agents/${created.body.id}/run`, write, { task: 'answer' });
      const end = await ended({ url, read }, `agentrun-${run.body.id}`, 'AgentRun');
      const failed = await call(url, 'GET', `/v1/agents/${created.body.id}/runs/${run.body.id}`, read);
      return `run ${end}${failed.body.error ? ` (${failed.body.error.code})` : ''}`;
    },
  });
}

const CASES = {
  'schema-pattern-nested-plus': schemaCase(
    { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } },
    JSON.stringify({ s: `${'a'.repeat(29)}b` }),
  ),
  'schema-property-names': schemaCase(
    { type: 'object', propertyNames: { pattern: '^(a|aa)+$' } },
    JSON.stringify({ [`${'a'.repeat(40)}b`]: 1 }),
  ),
  'schema-defs-chain-23': schemaCase(chainOfDefs(23), JSON.stringify({ x: 1 })),
  'schema-unique-items-9000': schemaCase(
    { type: 'object', properties: { list: { type: 'array', uniqueItems: true } } },
    JSON.stringify({ list: Array.from({ length: 9000 }, (_, i) => ({ id: i, name: `item ${i}` })) }),
  ),
  'schema-52kb': schemaCase(largeSchema(52 * 1024), JSON.stringify({ field_0: 'x' })),
};

module.exports = { CASES };
