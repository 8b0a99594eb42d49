'use strict';
// The cases of bench/hostile-input.js, by name. Each one `prepare`s what it needs through the API (not measured),
// then `run`s the hostile requests (measured) and returns a line of detail; `env` adds to the service's variables
// (an object, or a function the runner awaits before it starts the service); `close`, if any, is called in the end.
module.exports = {
  CASES: {
    ...require('./log-cases').CASES,
    ...require('./body-cases').CASES,
    ...require('./workflow-cases').CASES,
    ...require('./schema-cases').CASES,
  },
};
