import { beforeAll, describe, expect, it } from 'vitest';
import { apiTestbed } from '../testing/testbed';
import { graphName } from './graphs.fixtures';
import { fixtureArchive } from './uploads.fixtures';

/**
 * Workspace defaults of agent templates and graph nodes: checked when saved as a run's source
 * would be (the policy's `workspace.sources`, the secret's kind, the upload, the session), an
 * upload never claimed by the save, and used by runs that name no files of their own.
 */
const tb = apiTestbed({ agent: true });
const REPO = 'https://git.example.test/acme/app.git';

beforeAll(async () => {
  const admin = await tb.as('admin');
  await admin.policies.save({ teamId: tb.fx.teamId, document: { version: 1, default: 'allow', workspace: { sources: ['https://git.example.test/acme/**'] } } });
  for (const [name, kind] of [
    ['FORGE_TOKEN', 'token'],
    ['DEPLOY_KEY', 'ssh_key'],
  ] as const) {
    await tb.db.teamSecret.create({ data: { teamId: tb.fx.teamId, name, kind, ciphertext: 'v1.sealed-elsewhere', last4: 'alue' } });
  }
});

const operator = () => tb.as('operator');
let made = 0;
const agentName = () => `ws-agent-${made++}`;

describe('agent templates', () => {
  it('save, return and clear a workspace default, with the change in the audit row', async () => {
    const api = await operator();
    const workspace = { git: { url: REPO, ref: 'main', secretRef: 'FORGE_TOKEN', depth: 5 } };
    const created = await api.agents.create({ teamId: tb.fx.teamId, name: agentName(), endpointId: tb.agent.endpointId, workspace });
    expect(created.workspace).toEqual(workspace);
    expect((await api.agents.get({ teamId: tb.fx.teamId, agentId: created.id })).workspace).toEqual(workspace);
    expect((await api.agents.list({ teamId: tb.fx.teamId })).find((a) => a.id === created.id)?.workspace).toEqual(workspace);
    expect((await api.agents.get({ teamId: tb.fx.teamId, agentId: tb.agent.agentId })).workspace).toBeNull();

    const moved = await api.agents.update({ teamId: tb.fx.teamId, agentId: created.id, workspace: { git: { url: `${REPO.slice(0, -4)}-2.git` } } });
    expect(moved).toMatchObject({ version: 2, workspace: { git: { url: 'https://git.example.test/acme/app-2.git' } } });
    const cleared = await api.agents.update({ teamId: tb.fx.teamId, agentId: created.id, workspace: null });
    expect(cleared).toMatchObject({ version: 3, workspace: null });
    expect((await tb.db.agentTemplate.findUniqueOrThrow({ where: { id: created.id } })).workspace).toBeNull();
    const audit = await tb.db.auditLog.findMany({ where: { targetId: created.id, action: 'agent.updated' }, orderBy: { seq: 'asc' } });
    expect(audit.map((a) => a.data)).toEqual([
      { changed: ['workspace'], version: 2 },
      { changed: ['workspace'], version: 3 },
    ]);
  });

  it('refuses a default a run could not use, naming why, and saves nothing', async () => {
    const api = await operator();
    const before = await tb.db.agentTemplate.count();
    const cases: Array<[unknown, string, RegExp]> = [
      [{ git: { url: 'https://elsewhere.example.test/x.git' } }, 'FORBIDDEN', /The team policy refuses this repository/],
      [{ git: { url: REPO, secretRef: 'NO_SUCH_SECRET' } }, 'PRECONDITION_FAILED', /names no team secret NO_SUCH_SECRET/],
      [{ git: { url: REPO, secretRef: 'DEPLOY_KEY' } }, 'BAD_REQUEST', /an https repository needs a token secret; DEPLOY_KEY is a ssh_key secret/],
      [{ archive: { uploadId: 'cmnosuchupload0000000000' } }, 'NOT_FOUND', /No upload cmnosuchupload0000000000 in this team/],
      [{ session: { sessionId: 'cmnosuchsession000000000' } }, 'NOT_FOUND', /No such session in this team/],
      [{ git: { url: 'https://user:pw@git.example.test/acme/app.git' } }, 'BAD_REQUEST', /must not hold a password or token/],
      [{ git: { url: REPO, ref: '-upload-pack=evil' } }, 'BAD_REQUEST', /ref.*must not start with/s],
      [{ git: { url: REPO, depth: 0 } }, 'BAD_REQUEST', /depth/],
    ];
    for (const [workspace, code, message] of cases) {
      const what = JSON.stringify(workspace);
      await expect(
        api.agents.create({ teamId: tb.fx.teamId, name: agentName(), endpointId: tb.agent.endpointId, workspace: workspace as never }),
        what,
      ).rejects.toMatchObject({ code, message: expect.stringMatching(message) });
      await expect(api.agents.update({ teamId: tb.fx.teamId, agentId: tb.agent.agentId, workspace: workspace as never }), what).rejects.toMatchObject({ code });
    }
    expect(await tb.db.agentTemplate.count()).toBe(before);
    expect((await tb.db.agentTemplate.findUniqueOrThrow({ where: { id: tb.agent.agentId } })).workspace).toBeNull();
  });

  it('an archive default is the team’s own upload, not claimed by the save; a run of the agent starts from it and claims it', async () => {
    const api = await operator();
    const upload = await api.uploads.create({ teamId: tb.fx.teamId, filename: 'seed.tar', data: fixtureArchive() });
    const agent = await api.agents.create({
      teamId: tb.fx.teamId,
      name: agentName(),
      endpointId: tb.agent.endpointId,
      workspace: { archive: { uploadId: upload.id } },
    });
    expect((await tb.db.upload.findUniqueOrThrow({ where: { id: upload.id } })).usedAt).toBeNull();
    const { runId } = await api.runs.create({ teamId: tb.fx.teamId, agentId: agent.id, goal: 'from the default' });
    expect((await tb.db.run.findUniqueOrThrow({ where: { id: runId } })).workspace).toEqual({ archive: { uploadId: upload.id } });
    expect((await tb.db.upload.findUniqueOrThrow({ where: { id: upload.id } })).usedAt).not.toBeNull();
    // The run's own workspace wins over the default.
    const own = await api.runs.create({ teamId: tb.fx.teamId, agentId: agent.id, goal: 'own files', workspace: { git: { url: REPO } } });
    expect((await tb.db.run.findUniqueOrThrow({ where: { id: own.runId } })).workspace).toEqual({ git: { url: REPO } });

    const theirs = await (await tb.asUser(tb.fx.outsider.id)).uploads.create({ teamId: tb.fx.otherTeamId, filename: 'x.tar', data: fixtureArchive() });
    await expect(api.agents.update({ teamId: tb.fx.teamId, agentId: agent.id, workspace: { archive: { uploadId: theirs.id } } })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});

describe('graph nodes', () => {
  it('store a workspace per node; a run of the graph starts from the root node’s, else its agent’s, unless it names its own', async () => {
    const api = await operator();
    const rootAgent = await api.agents.create({ teamId: tb.fx.teamId, name: agentName(), endpointId: tb.agent.endpointId, workspace: { git: { url: REPO } } });
    const nodeWorkspace = { git: { url: REPO, ref: 'release', secretRef: 'FORGE_TOKEN' } };
    const definition = (workspace?: typeof nodeWorkspace) => ({
      root: 'lead',
      nodes: [
        { key: 'lead', agentId: rootAgent.id, ...(workspace ? { workspace } : {}) },
        { key: 'helper', agentId: tb.agent.agentId },
      ],
      edges: [{ from: 'lead', to: 'helper', purpose: 'help' }],
    });
    const graph = await api.graphs.create({ teamId: tb.fx.teamId, name: graphName(), definition: definition(nodeWorkspace) });
    expect(graph.nodes.map((n) => [n.key, n.workspace])).toEqual([
      ['helper', null],
      ['lead', nodeWorkspace],
    ]);
    const fromNode = await api.runs.create({ teamId: tb.fx.teamId, graphId: graph.id, goal: 'ship it' });
    expect((await tb.db.run.findUniqueOrThrow({ where: { id: fromNode.runId } })).workspace).toEqual(nodeWorkspace);
    const audit = await tb.db.auditLog.findFirstOrThrow({ where: { targetId: fromNode.runId, action: 'run.created' } });
    expect(audit.data).toMatchObject({ workspace: 'git' });

    const own = await api.runs.create({
      teamId: tb.fx.teamId,
      graphId: graph.id,
      goal: 'ship it',
      workspace: { git: { url: `${REPO.slice(0, -4)}-own.git` } },
    });
    expect((await tb.db.run.findUniqueOrThrow({ where: { id: own.runId } })).workspace).toEqual({ git: { url: 'https://git.example.test/acme/app-own.git' } });

    await api.graphs.update({ teamId: tb.fx.teamId, graphId: graph.id, definition: definition() });
    const fromAgent = await api.runs.create({ teamId: tb.fx.teamId, graphId: graph.id, goal: 'ship it' });
    expect((await tb.db.run.findUniqueOrThrow({ where: { id: fromAgent.runId } })).workspace).toEqual({ git: { url: REPO } });
  });

  it('refuse a node workspace a run could not use, naming the node', async () => {
    const api = await operator();
    const bad = {
      root: 'lead',
      nodes: [{ key: 'lead', agentId: tb.agent.agentId, workspace: { git: { url: 'https://elsewhere.example.test/x.git' } } }],
      edges: [],
    };
    await expect(api.graphs.create({ teamId: tb.fx.teamId, name: graphName(), definition: bad })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringMatching(/^node lead: The team policy refuses this repository/),
    });
  });
});
