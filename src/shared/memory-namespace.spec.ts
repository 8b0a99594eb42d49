import { fillNamespace, namespaceProblem, namespaceTemplateProblem } from './memory-namespace';

describe('memory namespaces', () => {
  it('takes 1 to 8 segments of letters, digits, _, . and -, not dots alone', () => {
    expect(namespaceProblem('users/ada')).toBeUndefined();
    expect(namespaceProblem('a.b/c-d/e_f')).toBeUndefined();
    for (const bad of ['', 'a//b', '/a', 'a/', 'a/..', 'a b', Array(9).fill('n').join('/'), 'x'.repeat(101)]) {
      expect(namespaceProblem(bad)).toMatch(/^must be/);
    }
    expect(namespaceProblem(5)).toBe('must be a string');
  });

  it('fills a template from the context, and gives nothing for a path that leads to no word', () => {
    expect(namespaceTemplateProblem('users/{{context.user.id}}')).toBeUndefined();
    expect(namespaceTemplateProblem('users/{{input.id}}')).toContain('only {{context.<path>}}');
    expect(namespaceTemplateProblem('users//{{context.id}}')).toMatch(/^must be/);
    expect(fillNamespace('users/{{ context.user.id }}', { user: { id: 'ada' } })).toBe('users/ada');
    expect(fillNamespace('orgs/{{context.org}}/{{context.n}}', { org: 'acme', n: 7 })).toBe('orgs/acme/7');
    expect(fillNamespace('users/{{context.user}}', {})).toBeUndefined();
    expect(fillNamespace('users/{{context.user}}', { user: { id: 1 } })).toBeUndefined();
    // A value fills one segment: one with a slash, or a space, gives none.
    expect(fillNamespace('users/{{context.user}}', { user: 'ada/secrets' })).toBeUndefined();
    expect(fillNamespace('users/{{context.user}}', { user: 'ada lovelace' })).toBeUndefined();
  });
});
