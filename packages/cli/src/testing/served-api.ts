import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import {
  createAgentFixture,
  createTeamFixture,
  createTestLive,
  serveApi,
  type AgentFixture,
  type ServedApi,
  type TeamFixture,
  type TestLive,
} from '@looplane/api/testing';

/** A real API over HTTP for CLI tests: its own database and live bus, a team with members, an agent. */
export interface ServedApiFixture {
  db: TestDatabase;
  live: TestLive;
  server: ServedApi;
  fx: TeamFixture;
  agent: AgentFixture;
  /** Closes the server and the live bus and drops the database. */
  close(): Promise<void>;
}

export async function startServedApi(): Promise<ServedApiFixture> {
  const db = await createTestDatabase();
  const live = await createTestLive();
  const server = await serveApi({ db: db.db, dispatch: live.dispatch }, { db: db.db, bus: live.bus, heartbeatMs: 500, pollMs: 60_000 });
  const fx = await createTeamFixture(db.db);
  const agent = await createAgentFixture(db.db, fx.teamId);
  return {
    db,
    live,
    server,
    fx,
    agent,
    close: async () => {
      await server.close();
      await live.close();
      await db.drop();
    },
  };
}

/** Sets LOOPLANE_URL and LOOPLANE_TOKEN for in-process CLI runs; the returned function puts them back. */
export function pointCliAt(url: string, token: string): () => void {
  const saved = { url: process.env.LOOPLANE_URL, token: process.env.LOOPLANE_TOKEN };
  process.env.LOOPLANE_URL = url;
  process.env.LOOPLANE_TOKEN = token;
  return () => {
    if (saved.url === undefined) delete process.env.LOOPLANE_URL;
    else process.env.LOOPLANE_URL = saved.url;
    if (saved.token === undefined) delete process.env.LOOPLANE_TOKEN;
    else process.env.LOOPLANE_TOKEN = saved.token;
  };
}
