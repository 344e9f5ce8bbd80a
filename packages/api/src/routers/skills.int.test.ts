import { describe, expect, it } from 'vitest';
import { apiTestbed } from '../testing/testbed';
import { skillName } from './skills.fixtures';

const tb = apiTestbed({ agent: true });
const operator = () => tb.as('operator');

describe('skills', () => {
  it('creates, edits (version bumped each time), archives and restores a skill, each with an audit row; viewers read it', async () => {
    const api = await operator();
    const name = skillName();
    const created = await api.skills.create({
      teamId: tb.fx.teamId,
      name,
      description: 'Drafts quotes from the supplier catalogue.',
      instructions: '# Quotes\nAlways in EUR.',
      files: [{ path: 'quotes/rules.md', content: 'Round up to the cent.' }],
    });
    expect(created).toMatchObject({ name, version: 1, archivedAt: null, files: [{ path: 'quotes/rules.md', content: 'Round up to the cent.' }] });
    const edited = await api.skills.update({
      teamId: tb.fx.teamId,
      skillId: created.id,
      instructions: '# Quotes\nAlways in EUR, VAT shown.',
      expectedVersion: 1,
    });
    expect(edited).toMatchObject({ version: 2, instructions: '# Quotes\nAlways in EUR, VAT shown.', description: created.description });
    await expect(api.skills.update({ teamId: tb.fx.teamId, skillId: created.id, description: 'Stale edit', expectedVersion: 1 })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    const archived = await api.skills.archive({ teamId: tb.fx.teamId, skillId: created.id });
    expect(archived.version).toBe(3);
    expect(archived.archivedAt).toBeInstanceOf(Date);
    const viewer = await tb.as('viewer');
    expect((await viewer.skills.list({ teamId: tb.fx.teamId })).map((s) => s.name)).not.toContain(name);
    expect((await viewer.skills.list({ teamId: tb.fx.teamId, archived: true })).map((s) => s.name)).toContain(name);
    const restored = await api.skills.archive({ teamId: tb.fx.teamId, skillId: created.id, archived: false });
    expect(restored).toMatchObject({ version: 4, archivedAt: null });
    expect(await viewer.skills.get({ teamId: tb.fx.teamId, skillId: created.id })).toEqual(restored);
    const actions = await tb.db.auditLog.findMany({ where: { targetId: created.id }, orderBy: { id: 'asc' }, select: { action: true, actorId: true } });
    expect(actions.map((a) => a.action)).toEqual(['skill.created', 'skill.updated', 'skill.archived', 'skill.restored']);
    expect(actions.every((a) => a.actorId === tb.fx.members.operator.id)).toBe(true);
  });

  it('refuses a taken name, unsafe file paths, a multi-line description and oversize instructions, changing nothing', async () => {
    const api = await operator();
    const name = skillName();
    await api.skills.create({ teamId: tb.fx.teamId, name, description: 'One.', instructions: 'x' });
    const before = await tb.db.skill.count();
    await expect(api.skills.create({ teamId: tb.fx.teamId, name, description: 'Two.', instructions: 'y' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining(`"${name}" already exists`),
    });
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ files: [{ path: '../escape.sh', content: '' }] }, /\.\. segments/],
      [{ files: [{ path: '/etc/passwd', content: '' }] }, /relative/],
      [{ files: [{ path: '.git/hooks/pre-commit', content: '' }] }, /\.git/],
      [{ files: Array.from({ length: 21 }, (_, i) => ({ path: `f${i}.md`, content: '' })) }, /at most 20 files/],
      [{ description: 'two\nlines' }, /one line/],
      [{ instructions: 'x'.repeat(64 * 1024 + 1) }, /at most 65536 bytes/],
      [{ name: 'Has Spaces' }, /lowercase/],
    ];
    for (const [change, message] of bad) {
      const input = { teamId: tb.fx.teamId, name: skillName(), description: 'Fine.', instructions: 'Fine.', ...change };
      await expect(api.skills.create(input as never), JSON.stringify(change).slice(0, 80)).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        message: expect.stringMatching(message),
      });
    }
    expect(await tb.db.skill.count()).toBe(before);
  });

  it('agents list the skills they may use; an unknown or archived name is refused with its name; runs are offered the live ones', async () => {
    const api = await operator();
    const names = [skillName(), skillName()];
    const ids: string[] = [];
    for (const name of names)
      ids.push((await api.skills.create({ teamId: tb.fx.teamId, name, description: `About ${name}.`, instructions: `Text of ${name}.` })).id);
    await expect(api.agents.update({ teamId: tb.fx.teamId, agentId: tb.agent.agentId, skills: [names[0]!, 'no-such-skill'] })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('no skill named no-such-skill'),
    });
    const agentName = `skilled-${Date.now().toString(36)}`;
    await expect(api.agents.create({ teamId: tb.fx.teamId, name: agentName, endpointId: tb.agent.endpointId, skills: ['missing-one'] })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('missing-one'),
    });
    expect(await tb.db.agentTemplate.count({ where: { name: agentName } })).toBe(0);

    const agent = await api.agents.create({
      teamId: tb.fx.teamId,
      name: agentName,
      endpointId: tb.agent.endpointId,
      skills: names,
      slashCommands: [{ name: 'quote', goalTemplate: 'Quote {{item}}', args: [{ name: 'item', required: true }], skill: names[1] }],
    });
    expect(agent.skills).toEqual(names);
    // A run's config names the skills with their one-liners only, and the command's skill to load first.
    const { runId } = await api.runs.create({ teamId: tb.fx.teamId, agentId: agent.id, goal: '/quote bolts' });
    const session = await tb.db.session.findFirstOrThrow({ where: { runId }, select: { config: true } });
    expect(session.config).toMatchObject({ skills: names.map((name) => ({ name, description: `About ${name}.` })), preloadSkills: [names[1]] });
    expect(JSON.stringify(session.config)).not.toContain('Text of');

    // Archived: no longer offered to new runs (the agent keeps its list); a command naming it is refused.
    await api.skills.archive({ teamId: tb.fx.teamId, skillId: ids[0]! });
    const plain = await api.runs.create({ teamId: tb.fx.teamId, agentId: agent.id, goal: 'anything' });
    const plainConfig = (await tb.db.session.findFirstOrThrow({ where: { runId: plain.runId }, select: { config: true } })).config;
    expect(plainConfig).toMatchObject({ skills: [{ name: names[1] }] });
    await api.skills.archive({ teamId: tb.fx.teamId, skillId: ids[1]! });
    await expect(api.runs.create({ teamId: tb.fx.teamId, agentId: agent.id, goal: '/quote nuts' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining(`skill ${names[1]}`),
    });
  });
});
