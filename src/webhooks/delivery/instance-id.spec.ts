import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { instanceIdOf } from './instance-id';

describe("a webhook instance's name", () => {
  let dataDir: string;
  beforeEach(() => (dataDir = mkdtempSync(join(tmpdir(), 'instance-id-'))));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('is kept in the data folder, so a restart claims under the same name, with the host beside it', () => {
    const first = instanceIdOf(dataDir);
    expect(first).toMatch(new RegExp(`^[0-9a-f-]{36}@${hostname()}$`));
    expect(instanceIdOf(dataDir)).toBe(first);
  });

  it('is made anew when the file was left empty or holds something else', () => {
    const file = join(dataDir, 'webhook-instance.id');
    for (const left of ['', 'not an id\n']) {
      writeFileSync(file, left);
      const id = instanceIdOf(dataDir);
      expect(id).toMatch(/^[0-9a-f-]{36}@/);
      expect(readFileSync(file, 'utf8')).toBe(id.split('@')[0]);
    }
  });
});
