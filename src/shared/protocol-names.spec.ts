import { agentToolName, workflowToolName } from './protocol-names';

describe('protocol names', () => {
  it('prefixes a name that is already a tool name', () => {
    expect(agentToolName('researcher')).toBe('agent_researcher');
    expect(workflowToolName('daily-digest.v2')).toBe('workflow_daily-digest.v2');
  });

  it('keeps what it can of any other name, with a hash of the whole of it, the same each time', () => {
    const name = agentToolName('Ask me: anything!');
    expect(name).toMatch(/^agent_Ask_me_anything_[0-9a-f]{8}$/);
    expect(agentToolName('Ask me: anything!')).toBe(name);
    expect(agentToolName('Ask me anything')).not.toBe(name);
    expect(agentToolName('日本語')).toMatch(/^agent_[0-9a-f]{8}$/);
  });

  it('fits 128 characters, and tells apart workflows of one name by the disambiguator', () => {
    expect(agentToolName('x'.repeat(200))).toHaveLength(128);
    expect(workflowToolName('digest', 'wf_1')).not.toBe(workflowToolName('digest', 'wf_2'));
    expect(workflowToolName('digest', 'wf_1')).toMatch(/^workflow_digest_[0-9a-f]{8}$/);
  });
});
