import fc from 'fast-check';
import { assignModelNames, sanitiseToolName } from './model-names';

const VALID = /^[A-Za-z0-9_-]{1,64}$/;

describe('tool names for models', () => {
  it('keeps valid ids and replaces what providers refuse', () => {
    expect(sanitiseToolName('current_time')).toBe('current_time');
    expect(sanitiseToolName('mcp:github/create issue')).toBe('mcp_github_create_issue');
    expect(sanitiseToolName('mcp:files/read.file')).toBe('mcp_files_read_file');
    expect(sanitiseToolName('::')).toBe('tool');
  });

  it('disambiguates ids that sanitise to the same name, stably', () => {
    const names = assignModelNames(['mcp:a/b', 'mcp:a.b', 'mcp_a_b', 'MCP:A/B']);
    expect(names[0]).toBe('mcp_a_b');
    expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(4);
    expect(assignModelNames(['mcp:a/b', 'mcp:a.b', 'mcp_a_b', 'MCP:A/B'])).toEqual(names);
  });

  it('shortens long ids to 64 characters, keeping them apart', () => {
    const long = `mcp:server/${'x'.repeat(80)}`;
    const [first, second] = assignModelNames([`${long}1`, `${long}2`]);
    expect(first).toHaveLength(64);
    expect(first).not.toBe(second);
  });

  it('always gives valid, unique names', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ maxLength: 100 }), { maxLength: 20 }), (ids) => {
        const names = assignModelNames(ids);
        expect(names).toHaveLength(ids.length);
        for (const name of names) expect(name).toMatch(VALID);
        expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(ids.length);
      }),
    );
  });
});
