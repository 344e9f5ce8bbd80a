import { defineRoute, type RestRoute } from '../rest-route';
import { archiveSkillBody, createSkillBody, listSkillsQuery, skill, skillIdParams, skillList, updateSkillBody } from '../schemas/skills.schemas';

const skillParams = { skillId: 'cmexampleid0000000000000' };

export const skillRoutes: RestRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/skills',
    operationId: 'listSkills',
    summary: 'List skills',
    description: 'The team’s skill library: instructions (and small files) an agent loads on demand with `load_skill`.',
    tag: 'skills',
    procedure: 'skills.list',
    query: listSkillsQuery,
    response: skillList,
    responseDescription: 'The skills, by name',
    example: {},
    handle: ({ caller, teamId, query }) => caller.skills.list({ teamId, archived: query.archived }),
  }),

  defineRoute({
    method: 'POST',
    path: '/skills',
    operationId: 'createSkill',
    summary: 'Create a skill',
    description:
      'A name (lowercase letters, digits, - and _), a one-line description (what the model sees before loading it), Markdown instructions ' +
      '(at most 64 KB) and up to 20 text files with relative paths. An agent may use it once its `skills` list names it.',
    tag: 'skills',
    procedure: 'skills.create',
    body: createSkillBody,
    response: skill,
    status: 201,
    responseDescription: 'The skill, at version 1',
    problems: [409],
    example: { body: { name: 'quote-drafting', description: 'Drafts a quote from the supplier catalogue', instructions: '# Quotes\nPrices in EUR.' } },
    handle: ({ caller, teamId, body }) => caller.skills.create({ teamId, ...body }),
  }),

  defineRoute({
    method: 'GET',
    path: '/skills/{skillId}',
    operationId: 'getSkill',
    summary: 'Get a skill',
    tag: 'skills',
    procedure: 'skills.get',
    params: skillIdParams,
    response: skill,
    responseDescription: 'The skill',
    problems: [404],
    example: { params: skillParams },
    handle: ({ caller, teamId, params }) => caller.skills.get({ teamId, skillId: params.skillId }),
  }),

  defineRoute({
    method: 'PATCH',
    path: '/skills/{skillId}',
    operationId: 'updateSkill',
    summary: 'Change a skill',
    description:
      'Changes the given fields (a new version); with `expectedVersion`, a concurrent edit makes it fail with 409. Runs that loaded it keep the text they loaded.',
    tag: 'skills',
    procedure: 'skills.update',
    params: skillIdParams,
    body: updateSkillBody,
    response: skill,
    responseDescription: 'The changed skill',
    problems: [404, 409],
    example: { params: skillParams, body: { description: 'Drafts a quote in EUR', expectedVersion: 1 } },
    handle: ({ caller, teamId, params, body }) => caller.skills.update({ teamId, skillId: params.skillId, ...body }),
  }),

  defineRoute({
    method: 'POST',
    path: '/skills/{skillId}/archive',
    operationId: 'archiveSkill',
    summary: 'Archive or restore a skill',
    description: 'An archived skill is offered to no new run (its name stays taken); `archived: false` brings it back.',
    tag: 'skills',
    procedure: 'skills.archive',
    params: skillIdParams,
    body: archiveSkillBody,
    response: skill,
    responseDescription: 'The skill, archived or restored',
    problems: [404, 409],
    example: { params: skillParams, body: {} },
    handle: ({ caller, teamId, params, body }) => caller.skills.archive({ teamId, skillId: params.skillId, ...body }),
  }),
];
