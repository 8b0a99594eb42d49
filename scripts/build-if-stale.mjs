// `npm start` runs this first: it builds (`npm run build`) only when a source is newer than the build, so a start
// with nothing changed takes no build time. Sources: src/, web/, client/, the package and TypeScript settings.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SOURCES = ['src', 'web', 'client', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];
const OUTPUTS = ['dist/main.js', 'dist-web/index.html'];

/** The newest modification time under a file or folder (0 when it does not exist). */
function newest(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules') continue;
    latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

const built = Math.min(...OUTPUTS.map((path) => newest(path) || -1));
const changed = Math.max(...SOURCES.map(newest));
if (built > 0 && changed <= built) {
  console.log('The build is up to date (no source is newer); starting.');
} else {
  console.log(built > 0 ? 'Sources changed since the last build: building.' : 'No build yet: building.');
  const { status } = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
  if (status !== 0) process.exit(status ?? 1);
}
