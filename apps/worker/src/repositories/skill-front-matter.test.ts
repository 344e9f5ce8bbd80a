import { describe, expect, it } from 'vitest';
import { parseSkillMd } from './skill-front-matter';

describe('SKILL.md front matter', () => {
  it('reads name, description and the body; quotes, comments and other keys are fine', () => {
    const text = '---\nname: release\ndescription: "Cut a release: bump, tag, push."\n# a comment\nlicense: MIT\n---\n\n# Releasing\nBump the version.\n';
    expect(parseSkillMd(text)).toEqual({ name: 'release', description: 'Cut a release: bump, tag, push.', instructions: '# Releasing\nBump the version.' });
    expect(parseSkillMd("\uFEFF---\r\nname: 'a'\r\ndescription: b\r\n---\r\nbody")).toEqual({ name: 'a', description: 'b', instructions: 'body' });
  });

  it('refuses what is not a usable skill, saying why', () => {
    const cases: [string, RegExp][] = [
      ['# no front matter', /does not start/],
      ['---\nname: a\ndescription: b\n', /no closing/],
      ['---\nname: a\ndescription: b\n  nested: x\n---\nbody', /not key: value/],
      ['---\nname: a\nname: b\ndescription: c\n---\nbody', /names name twice/],
      ['---\ndescription: b\n---\nbody', /^name:/],
      ['---\nname: Not A Slug\ndescription: b\n---\nbody', /^name:/],
      ['---\nname: a\n---\nbody', /^description:/],
      [`---\nname: a\ndescription: ${'x'.repeat(201)}\n---\nbody`, /^description:/],
      ['---\nname: a\ndescription: b\n---\n   \n', /^instructions:/],
      [`---\nname: a\ndescription: b\n---\n${'x'.repeat(64 * 1024 + 1)}`, /^instructions:/],
    ];
    for (const [text, problem] of cases) {
      const parsed = parseSkillMd(text);
      expect('problem' in parsed ? parsed.problem : 'parsed', text.slice(0, 40)).toMatch(problem);
    }
  });
});
