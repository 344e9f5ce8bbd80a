import { createPgPool } from '@looplane/db';
import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import { createTestDatabase } from '@looplane/testkit';
import { PostgresWorkspaceStore } from './postgres.store';
import { describeWorkspaceStore } from './testing';

describeWorkspaceStore('postgres', async () => {
  const database = await createTestDatabase();
  const pool = createPgPool(database.url, { max: 4 });
  const teamId = await createTestTeam(database.db);
  const agent = await createTestAgent(database.db, teamId);
  return {
    store: new PostgresWorkspaceStore(pool),
    newRun: async () => (await createTestRun(database.db, agent)).runId,
    finishRun: async (runId, finishedAt) => {
      await database.db.run.update({ where: { id: runId }, data: { status: 'succeeded', finishedAt } });
    },
    close: async () => {
      await pool.end();
      await database.drop();
    },
  };
});
