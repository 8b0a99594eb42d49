import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const DEPCRUISE = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

/**
 * Runs `npm run check:imports`'s rules on a small tree of files written for the test, so that a rule is seen to
 * catch the import it forbids (the real src/ passes them all, and so cannot show that).
 */
function violationsIn(files: Record<string, string>): Violation[] {
  const tree = mkdtempSync(join(tmpdir(), 'import-rules-'));
  try {
    writeFileSync(join(tree, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'commonjs' } }));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(tree, path)), { recursive: true });
      writeFileSync(join(tree, path), text);
    }
    const config = join(ROOT, '.dependency-cruiser.cjs');
    const run = spawnSync(process.execPath, [DEPCRUISE, 'src', '--config', config, '--output-type', 'json'], {
      cwd: tree,
      encoding: 'utf8',
    });
    const result = JSON.parse(run.stdout) as { summary: { violations: Violation[] } };
    return result.summary.violations;
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}

describe('the import rules (.dependency-cruiser.cjs)', () => {
  const feature = { 'src/tools/tool-registry.ts': 'export const TOOL_LIMIT = 3;\n' };
  const shared = { 'src/shared/env.ts': 'export const integer = (raw: string) => Number(raw);\n' };

  it('refuse an import from config/ into a feature', () => {
    const violations = violationsIn({
      ...feature,
      ...shared,
      'src/config/tool-settings.ts':
        "import { TOOL_LIMIT } from '../tools/tool-registry';\nexport const LIMIT = TOOL_LIMIT;\n",
    });
    expect(violations.map(({ rule, from, to }) => [rule.name, from, to])).toEqual([
      ['config-imports-only-shared', 'src/config/tool-settings.ts', 'src/tools/tool-registry.ts'],
    ]);
  });

  it('let config/ use shared/, and a feature use config/', () => {
    const violations = violationsIn({
      ...shared,
      'src/config/tool-settings.ts': "import { integer } from '../shared/env';\nexport const LIMIT = integer('3');\n",
      'src/tools/tool-registry.ts':
        "import { LIMIT } from '../config/tool-settings';\nexport const TOOL_LIMIT = LIMIT;\n",
    });
    expect(violations).toEqual([]);
  });

  describe('between features', () => {
    const agents = {
      'src/agents/queries/agents.read-model.ts': 'export class AgentsReadModel {}\n',
      'src/agents/agent-directory.port.ts': 'export abstract class AgentDirectory {}\n',
      'src/agents/agent.ts': 'export const agentStream = (id: string) => `agent-${id}`;\n',
      'src/agents/agents.module.ts': 'export class AgentsModule {}\n',
    };

    it("refuse an import of another feature's internals", () => {
      const violations = violationsIn({
        ...agents,
        'src/workflows/step-agents.ts':
          "import { AgentsReadModel } from '../agents/queries/agents.read-model';\nexport const read = AgentsReadModel;\n",
      });
      expect(violations.map(({ rule, from, to }) => [rule.name, from, to])).toEqual([
        ['features-meet-through-ports', 'src/workflows/step-agents.ts', 'src/agents/queries/agents.read-model.ts'],
      ]);
    });

    it("let a feature use another's ports, domain and module, and its own internals", () => {
      const violations = violationsIn({
        ...agents,
        'src/workflows/step-agents.ts': [
          "import { AgentDirectory } from '../agents/agent-directory.port';",
          "import { agentStream } from '../agents/agent';",
          "import { AgentsModule } from '../agents/agents.module';",
          'export const used = [AgentDirectory, agentStream, AgentsModule];',
          '',
        ].join('\n'),
        'src/agents/archive-agent.handler.ts':
          "import { AgentsReadModel } from './queries/agents.read-model';\nexport const read = AgentsReadModel;\n",
      });
      expect(violations).toEqual([]);
    });
  });
});
