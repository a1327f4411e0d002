import { describe, expect, it } from 'vitest';
import type { AgentCard, DiscoverySkill } from '@/lib/discovery';
import { skillTitle } from '@/lib/pages/sidepanel/DiscoveryView';

/** Issue 33: a skill is named for people, its id kept as secondary text. */

const skill = (name: string, description = 'Turn a thesis into a draft playbook.'): DiscoverySkill => ({
  name,
  description,
  url: `https://agent.example/.well-known/agent-skills/${name}/SKILL.md`,
  verification: 'verified',
});

const card = (skills: AgentCard['skills']): AgentCard => ({
  name: 'Investing Agent',
  description: '',
  version: '1',
  url: null,
  capabilities: [],
  links: [],
  skills,
});

describe('a skill’s name for people', () => {
  it('is its id in words when no document names it (the sandbox’s card repeats the id)', () => {
    expect(skillTitle(skill('playbook-authoring'), null)).toBe('Playbook authoring');
    expect(skillTitle(skill('service_discovery'), null)).toBe('Service discovery');
    const sameAsId = card([
      { name: 'playbook-authoring', description: 'Turn a thesis into a draft playbook.' },
    ]);
    expect(skillTitle(skill('playbook-authoring'), sameAsId)).toBe('Playbook authoring');
  });

  it('is the agent card’s name for the skill with the same description, when it gives one', () => {
    const named = card([
      { name: 'Backtest review', description: 'Queue a backtest.' },
      { name: 'Authoring playbooks', description: 'Turn a thesis into a draft playbook.' },
    ]);
    expect(skillTitle(skill('playbook-authoring'), named)).toBe('Authoring playbooks');
    // An empty description matches nothing.
    expect(skillTitle(skill('x-y', ''), card([{ name: 'Other', description: '' }]))).toBe('X y');
  });
});
