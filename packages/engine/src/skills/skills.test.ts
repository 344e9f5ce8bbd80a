import { describe, expect, it } from 'vitest';
import { drive } from '../loop/drive';
import { createEvent } from '../events/create-event';
import type { EngineEvent } from '../events/event-types';
import { apply, fold, foldUntil } from '../state/fold';
import type { LoadedSkill, SkillPort } from '../ports/skill-port';
import { recordingOf } from '../replay/recording';
import { fixedClock, longScript, longScriptTools, payloadsOf, startFixture } from '../testing';
import { LOAD_SKILL, skillFilesSchema, skillNameSchema, skillDescriptionSchema } from './skill-schemas';

const INSTRUCTIONS = 'Always write the quote in EUR and cite the catalogue page.';

function library(count: number): { skills: { name: string; description: string }[]; port: SkillPort; loads: string[] } {
  const skills = Array.from({ length: count }, (_, i) => ({ name: `skill-${i}`, description: `Does thing ${i}.` }));
  const loads: string[] = [];
  const port: SkillPort = {
    async load({ name }): Promise<LoadedSkill | null> {
      loads.push(name);
      if (!skills.some((s) => s.name === name)) return null;
      return { name, version: 3, description: `Does thing ${name}.`, instructions: `${INSTRUCTIONS} (${name})`, files: [] };
    },
  };
  return { skills, port, loads };
}

describe('skill schemas', () => {
  it('takes slug names, one-line descriptions and safe relative file paths only', () => {
    expect(skillNameSchema.safeParse('quote-drafting_2').success).toBe(true);
    for (const bad of ['Quote', 'a b', '-a', '', 'x'.repeat(65), 'a/b']) expect(skillNameSchema.safeParse(bad).success).toBe(false);
    expect(skillDescriptionSchema.safeParse('one line').success).toBe(true);
    expect(skillDescriptionSchema.safeParse('two\nlines').success).toBe(false);
    expect(skillDescriptionSchema.safeParse('x'.repeat(201)).success).toBe(false);
    expect(skillFilesSchema.safeParse([{ path: 'docs/a.md', content: 'x' }]).success).toBe(true);
    for (const path of ['../a', '/etc/passwd', 'a/../../b', '.git/config', 'a/.git/hooks/x', 'a//b', 'C:/x', 'a\\b']) {
      expect(skillFilesSchema.safeParse([{ path, content: '' }]).success, path).toBe(false);
    }
    expect(skillFilesSchema.safeParse(Array.from({ length: 21 }, (_, i) => ({ path: `f${i}`, content: '' }))).success).toBe(false);
    expect(skillFilesSchema.safeParse([{ path: 'big', content: 'x'.repeat(64 * 1024 + 1) }]).success).toBe(false);
  });
});

describe('skills in the loop', () => {
  it('the first prompt carries only names and one-liners, and load_skill is offered', async () => {
    const { skills, port } = library(30);
    const f = await startFixture({ config: { skills }, script: [{ finish: 'done' }], skills: port });
    await drive({ ports: f.ports });
    const first = f.requests[0]!;
    const text = first.messages.map((m) => m.content).join('\n');
    for (const s of skills) expect(text).toContain(`- ${s.name}: ${s.description}`);
    expect(text).not.toContain(INSTRUCTIONS);
    expect(first.tools.map((t) => t.name)).toEqual([LOAD_SKILL]);
  });

  it('loading adds the instructions once; loading again is a no-op answer; an unknown name is refused', async () => {
    const { skills, port, loads } = library(3);
    const f = await startFixture({
      config: { skills },
      script: [
        { calls: [{ tool: LOAD_SKILL, args: { name: 'skill-1' } }] },
        {
          calls: [
            { tool: LOAD_SKILL, args: { name: 'skill-1' } },
            { tool: LOAD_SKILL, args: { name: 'nope' } },
          ],
        },
        { finish: 'done' },
      ],
      skills: port,
    });
    const { state } = await drive({ ports: f.ports });
    expect(state.status).toBe('succeeded');
    expect(loads).toEqual(['skill-1']);
    const loaded = payloadsOf(f.store.events, 'skill.loaded');
    expect(loaded).toHaveLength(1);
    expect(loaded[0]).toMatchObject({ name: 'skill-1', version: 3, source: 'team', instructions: `${INSTRUCTIONS} (skill-1)` });
    const last = f.requests.at(-1)!;
    const copies = last.messages.filter((m) => m.content.includes(`${INSTRUCTIONS} (skill-1)`));
    expect(copies).toHaveLength(1);
    const results = last.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results.some((r) => r.includes('already loaded'))).toBe(true);
    expect(results.some((r) => r.includes('unknown skill nope'))).toBe(true);
    expect(fold(await f.store.load())).toStrictEqual(state);
  });

  it('a loaded skill survives compaction, and a fork after the load keeps it', async () => {
    const { skills, port } = library(2);
    const tools = longScriptTools();
    const f = await startFixture({
      config: {
        skills,
        tools: Object.keys(tools).map((name) => ({ name, description: name })),
        toolLoading: 'eager',
        model: { model: 'scripted', contextWindow: 6000, maxOutputTokens: 500 },
        compaction: { summarizer: 'deterministic', keepRecentTurns: 2, threshold: 0.8 },
      },
      script: [{ calls: [{ tool: LOAD_SKILL, args: { name: 'skill-0' } }] }, ...longScript(40)],
      tools,
      skills: port,
    });
    const { state } = await drive({ ports: f.ports, maxSteps: 400 });
    expect(payloadsOf(f.store.events, 'compaction.applied').length).toBeGreaterThan(0);
    expect(f.requests.at(-1)!.messages.some((m) => m.content.includes(`${INSTRUCTIONS} (skill-0)`))).toBe(true);
    expect(state.loadedSkills).toEqual(['skill-0']);

    // A fork right after the load: its state (the same fold of the inherited events) holds the skill.
    const events = await f.store.load();
    const at = events.find((e) => e.type === 'skill.loaded')!.seq;
    const fork = foldUntil(events, at);
    apply(fork, { ...createEvent('session.forked', { parentSessionId: 'p', atSeq: at }, fixedClock()), seq: at + 1 } as EngineEvent);
    expect(fork.loadedSkills).toEqual(['skill-0']);
    expect(fork.context.some((i) => i.pinned && i.message.content.includes(`${INSTRUCTIONS} (skill-0)`))).toBe(true);
  });

  it('a replay serves the loaded skill from the recording, never asking the library', async () => {
    const { skills, port } = library(2);
    const f = await startFixture({
      config: { skills },
      script: [{ calls: [{ tool: LOAD_SKILL, args: { name: 'skill-1' } }] }, { finish: 'done' }],
      skills: port,
    });
    await drive({ ports: f.ports });
    const turns = recordingOf(await f.store.load(), 0);
    expect(turns[0]!.calls[0]!.outcome).toMatchObject({ kind: 'skill', skill: { name: 'skill-1', instructions: `${INSTRUCTIONS} (skill-1)` } });
  });

  it("a preloaded skill (a slash command's) joins the context before the first model call", async () => {
    const { skills, port } = library(2);
    const f = await startFixture({ config: { skills, preloadSkills: ['skill-1'] }, script: [{ finish: 'done' }], skills: port });
    await drive({ ports: f.ports });
    expect(f.requests[0]!.messages.some((m) => m.content.includes(`${INSTRUCTIONS} (skill-1)`))).toBe(true);
  });

  it("a seeded repository's skills are offered and load from the log", async () => {
    const f = await startFixture({ script: [{ calls: [{ tool: LOAD_SKILL, args: { name: 'release' } }] }, { finish: 'done' }] });
    // Replace the fixture's start with one that carries the repository's skills.
    f.store.events.length = 0;
    const repository = {
      skills: [{ name: 'release', description: 'Cut a release.', dir: '.looplane/skills/release', instructions: 'Bump, tag, push.', files: ['notes.md'] }],
    };
    await f.store.append([createEvent('run.started', { goal: 'Do it.', config: { model: { model: 'scripted' } }, repository }, fixedClock())], 0);
    const { state } = await drive({ ports: f.ports });
    expect(state.status).toBe('succeeded');
    expect(f.requests[0]!.messages.map((m) => m.content).join('\n')).toContain('- release: Cut a release.');
    expect(f.requests[0]!.tools.map((t) => t.name)).toContain(LOAD_SKILL);
    expect(payloadsOf(f.store.events, 'skill.loaded')[0]).toMatchObject({ source: 'repository', files: ['.looplane/skills/release/notes.md'] });
    expect(f.requests[1]!.messages.some((m) => m.content.includes('Bump, tag, push.'))).toBe(true);
  });
});
