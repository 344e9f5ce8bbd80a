import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The processes `looplane start` supervises (the label values of `looplane_process_restarts_total`). */
export type SupervisedName = 'web' | 'worker';

/**
 * The file the supervisor keeps its counts in, read by the web app and the worker for `/metrics`
 * (passed to them as LOOPLANE_SUPERVISOR_STATE). Format, version 1:
 * `{ "version": 1, "pid": 123, "restarts": { "web": 0, "worker": 1 }, "updatedAt": "<ISO time>" }`.
 */
export function supervisorStateFile(home: string): string {
  return join(home, 'supervisor.json');
}

/** The counts `looplane start` publishes; each write replaces the file atomically. */
export class SupervisorState {
  private readonly restarts: Record<SupervisedName, number> = { web: 0, worker: 0 };
  private writing: Promise<void> = Promise.resolve();

  constructor(readonly file: string) {}

  /** Writes the current counts (all zero at first), so a scrape never finds the file missing. */
  save(): Promise<void> {
    // Writes are chained: two restarts close together must not race on the temporary file.
    this.writing = this.writing.then(
      () => this.write(),
      () => this.write(),
    );
    return this.writing;
  }

  /** Counts one restart of `name` and saves; resolves to its new count. */
  async countRestart(name: SupervisedName): Promise<number> {
    this.restarts[name] += 1;
    await this.save();
    return this.restarts[name];
  }

  /** The counts so far. */
  counts(): Readonly<Record<SupervisedName, number>> {
    return { ...this.restarts };
  }

  private async write(): Promise<void> {
    const body = { version: 1, pid: process.pid, restarts: this.restarts, updatedAt: new Date().toISOString() };
    // Written next to the file and renamed over it: a reader sees the old counts or the new ones.
    const temporary = `${this.file}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(body)}\n`);
    await rename(temporary, this.file);
  }
}
