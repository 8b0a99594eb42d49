// `npm run dev`: the service restarts on each change of its sources, and the console rebuilds on each change of
// its own. TypeScript compiles in watch mode; Node restarts on a change of what it compiled (`node --watch`);
// Vite rebuilds dist-web/, which the service serves as it is on disk.
import concurrently from 'concurrently';

const { result } = concurrently(
  [
    { name: 'tsc', command: 'tsc -p tsconfig.build.json --watch --preserveWatchOutput', prefixColor: 'blue' },
    { name: 'web', command: 'vite build --watch --config web/vite.config.mts --logLevel warn', prefixColor: 'magenta' },
    {
      name: 'service',
      // Waits for the first compile; then restarts whenever a compiled file changes.
      command: 'node -e "require(\'node:fs\').existsSync(\'dist/main.js\') || process.exit(1)" || tsc -p tsconfig.build.json; node --watch --watch-preserve-output dist/main.js',
      env: { LOG_FORMAT: process.env.LOG_FORMAT ?? 'pretty' },
      prefixColor: 'green',
    },
  ],
  { killOthers: ['failure'], prefix: 'name' },
);
result.catch(() => process.exit(1));
