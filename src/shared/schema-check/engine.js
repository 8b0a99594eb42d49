'use strict';
// The JSON Schema validator for user-given schemas (an agent's or a run's outputSchema), shared by the checker's
// worker thread (check.worker.js) and its tests. Plain JavaScript, so that the same file runs from src (tests) and
// dist. Two changes to ajv's defaults keep a check linear in the value checked:
// - `pattern`, `patternProperties` and `propertyNames` patterns run on RE2 (re2js), whose matching time is linear
//   in the text: a pattern such as ^(a+)+$ cannot backtrack for seconds on a model's answer. RE2 has no
//   backreferences or lookarounds; such a pattern fails to compile here (and is refused when the schema is given).
// - `uniqueItems` compares canonical JSON keys in a set, in time linear in the array, where ajv compares every pair
//   of items that are objects (9,000 objects: 2 s).
const Ajv = require('ajv');
const { RE2JS } = require('re2js');

/** The most instructions one pattern may compile to (`^.{0,1000}$` is 2,004; everyday patterns tens to hundreds). */
const MAX_PATTERN_PROGRAM = 5000;
/** The most instructions all the patterns of a schema may compile to together. */
const MAX_PATTERNS_PROGRAM = 50000;

/** A pattern compiled by RE2, or a thrown RE2JSSyntaxException saying why it cannot be. */
function compileRe2(pattern) {
  // JavaScript syntax RE2 spells otherwise (\u00e9, (?<name>…), [^]) is translated first.
  return RE2JS.compile(RE2JS.translateRegExp(pattern));
}

/**
 * Why RE2 cannot run each of `patterns` (index and message), or why they are too large: matching costs the text's
 * length times a pattern's program, and compiling them takes time in proportion to their programs.
 */
function patternProblems(patterns) {
  const problems = [];
  let total = 0;
  for (const [index, pattern] of patterns.entries()) {
    let size;
    try {
      size = compileRe2(pattern).programSize();
    } catch (error) {
      const why = String(error?.message ?? error);
      const message = `${why} (patterns run on RE2, which matches in linear time and so has no backreferences or lookarounds)`;
      problems.push({ index, message });
      continue;
    }
    total += size;
    if (size > MAX_PATTERN_PROGRAM) {
      problems.push({ index, message: `compiles to ${size} instructions, more than ${MAX_PATTERN_PROGRAM}` });
    } else if (total > MAX_PATTERNS_PROGRAM) {
      problems.push({
        index,
        message: `brings the schema's patterns to ${total} instructions, more than ${MAX_PATTERNS_PROGRAM}`,
      });
      break;
    }
  }
  return problems;
}

/** A pattern as ajv runs it, on RE2. */
function re2(pattern) {
  const compiled = compileRe2(pattern);
  // ajv keys its cache of patterns by toString(); RE2 is Unicode-aware without the `u` flag it passes.
  return { test: (text) => compiled.test(text), toString: () => `/${pattern}/` };
}
// Only read when ajv writes standalone code, which this service does not.
re2.code = 'require("re2js").RE2JS.compile';

/** A key equal for items that JSON Schema calls equal: object keys in order, numbers as JSON writes them. */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function uniqueItems(wanted) {
  if (!wanted) return () => true;
  const validate = (items) => {
    const seen = new Map();
    for (let j = 0; j < items.length; j++) {
      const key = canonical(items[j]);
      const i = seen.get(key);
      if (i !== undefined) {
        // The message and params are ajv's own for this keyword.
        const message = `must NOT have duplicate items (items ## ${j} and ${i} are identical)`;
        validate.errors = [{ keyword: 'uniqueItems', params: { i, j }, message }];
        return false;
      }
      seen.set(key, j);
    }
    return true;
  };
  return validate;
}

/** An ajv for user-given schemas. Unknown keywords are allowed; formats are annotations (ajv-formats is not loaded). */
function createAjv() {
  // ajv's optimizer pass over the generated code took two thirds of compiling a 52 KB schema (150 ms of 210) and
  // did not make the checks measurably faster: it is off.
  const code = { regExp: re2, optimize: false };
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false, code });
  ajv.removeKeyword('uniqueItems');
  ajv.addKeyword({ keyword: 'uniqueItems', type: 'array', schemaType: 'boolean', errors: true, compile: uniqueItems });
  return ajv;
}

/** An ajv error as the service reports it: where in the value (a JSON Pointer) and why. */
function toSchemaError(error) {
  const extra = error.keyword === 'additionalProperties' ? ` (${String(error.params.additionalProperty)})` : '';
  return { path: error.instancePath, message: `${error.message ?? 'is not valid'}${extra}` };
}

module.exports = { createAjv, toSchemaError, re2, patternProblems, MAX_PATTERN_PROGRAM, MAX_PATTERNS_PROGRAM };
