'use strict';
// Checks against user-given JSON Schemas, on a worker thread (see checker.ts): compiling a large schema or checking
// a large answer takes this thread's time, never the service's event loop, and a check that runs past its budget
// is ended by terminating this thread. Plain JavaScript, so that the same file runs from src (tests) and dist.
//
// In (messages): { id, schema, patterns } (the schema's JSON text and every pattern in it: check the patterns, then
// compile the schema) or { id, schema, value } (check the value).
// Out: { id, patternProblems: [{ index, message }] } (patterns RE2 cannot run, or too large), { id, problem } (why
// the schema cannot be compiled; absent when it can) or { id, errors: [{ path, message }] }.
const { parentPort } = require('node:worker_threads');
const { createAjv, patternProblems, toSchemaError } = require('./engine');

const ajv = createAjv();
const compiled = new Map();
const MAX_CACHED = 200;

/** The validator of a schema's text: compiled once, the last MAX_CACHED kept (about 1 MB each at most). */
function validatorOf(text) {
  const known = compiled.get(text);
  if (known) return known.validate;
  const schema = JSON.parse(text);
  const validate = ajv.compile(schema);
  // The schema is compiled once; its `$id`, if any, must not clash with the next compile of the same text.
  if (typeof schema.$id === 'string') ajv.removeSchema(schema.$id);
  if (compiled.size >= MAX_CACHED) {
    const [oldest, entry] = compiled.entries().next().value;
    compiled.delete(oldest);
    // ajv keeps every schema object it compiled, too: without this, each new schema would stay for good.
    ajv.removeSchema(entry.schema);
  }
  compiled.set(text, { schema, validate });
  return validate;
}

parentPort.on('message', (job) => {
  const { id, schema } = job;
  if (job.patterns) {
    const problems = patternProblems(job.patterns);
    if (problems.length) {
      parentPort.postMessage({ id, patternProblems: problems });
      return;
    }
  }
  let validate;
  try {
    validate = validatorOf(schema);
  } catch (error) {
    parentPort.postMessage({ id, problem: String(error?.message ?? error) });
    return;
  }
  if (!('value' in job)) {
    parentPort.postMessage({ id });
    return;
  }
  try {
    const errors = validate(job.value) ? [] : (validate.errors ?? []).map(toSchemaError);
    parentPort.postMessage({ id, errors });
  } catch (error) {
    // A value nested deeper than the stack allows, for one.
    parentPort.postMessage({
      id,
      errors: [{ path: '', message: `could not be checked (${String(error?.message ?? error)})` }],
    });
  }
});
