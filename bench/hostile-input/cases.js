'use strict';
// The cases of bench/hostile-input.js, by name. Each one `prepare`s what it needs through the API (not measured),
// then `run`s the hostile requests (measured) and returns a line of detail; `env` adds to the service's variables.
module.exports = {
  CASES: {
    ...require('./log-cases').CASES,
  },
};
