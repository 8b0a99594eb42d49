// Runs src/main.ts as a real process of its own, TypeScript transpiled on load (no type check, no build needed).
const { join } = require('node:path');
require('./transpile-on-load');
require(join(__dirname, '..', '..', 'src', 'main.ts'));
