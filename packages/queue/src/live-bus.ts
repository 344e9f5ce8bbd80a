import type { Redis } from 'ioredis';
import type { z } from 'zod';
import {
  cancelMessageSchema,
  channels,
  runEventMessageSchema,
  teamActivitySchema,
  type CancelMessage,
  type RunEventMessage,
  type TeamActivity,
} from './channels';

type Listener<T> = (message: T) => void;

const INBOX_PATTERN = channels.inbox('*');

/**
 * Live fan-out over Redis pub/sub. Publishing happens after the Postgres commit; a lost message
 * only delays a subscriber, because subscribers read the truth from Postgres by cursor.
 * One subscriber connection per process is shared by every subscription.
 */
export class LiveBus {
  private readonly listeners = new Map<string, Set<Listener<unknown>>>();
  private readonly inboxListeners = new Set<Listener<string>>();

  /**
   * @param publisher a normal connection
   * @param subscriber a dedicated connection (Redis puts it in subscribe mode)
   */
  constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
  ) {
    subscriber.on('message', (channel: string, raw: string) => {
      const set = this.listeners.get(channel);
      if (!set) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        return;
      }
      for (const listener of set) listener(parsed);
    });
    subscriber.on('pmessage', (pattern: string, channel: string) => {
      if (pattern !== INBOX_PATTERN) return;
      const sessionId = channel.slice(INBOX_PATTERN.length - 1);
      for (const listener of this.inboxListeners) listener(sessionId);
    });
  }

  publishRunEvent(message: RunEventMessage): Promise<number> {
    return this.publisher.publish(channels.run(message.runId), JSON.stringify(message));
  }

  publishTeamActivity(teamId: string, activity: TeamActivity): Promise<number> {
    return this.publisher.publish(channels.team(teamId), JSON.stringify(activity));
  }

  /** Many team notices in one write to Redis (a pipeline), e.g. for a batch of created runs. */
  async publishTeamActivities(notices: ReadonlyArray<{ teamId: string; activity: TeamActivity }>): Promise<void> {
    if (notices.length === 0) return;
    const pipeline = this.publisher.pipeline();
    for (const { teamId, activity } of notices) pipeline.publish(channels.team(teamId), JSON.stringify(activity));
    const results = (await pipeline.exec()) ?? [];
    const failed = results.find(([error]) => error);
    if (failed) throw failed[0];
  }

  publishCancel(message: CancelMessage): Promise<number> {
    return this.publisher.publish(channels.cancel, JSON.stringify(message));
  }

  publishInbox(sessionId: string): Promise<number> {
    return this.publisher.publish(channels.inbox(sessionId), '{}');
  }

  /** Follows a run's committed events; resolves once subscribed. Returns the unsubscribe function. */
  onRunEvent(runId: string, listener: Listener<RunEventMessage>): Promise<() => Promise<void>> {
    return this.listen(channels.run(runId), runEventMessageSchema, listener);
  }

  onTeamActivity(teamId: string, listener: Listener<TeamActivity>): Promise<() => Promise<void>> {
    return this.listen(channels.team(teamId), teamActivitySchema, listener);
  }

  onCancel(listener: Listener<CancelMessage>): Promise<() => Promise<void>> {
    return this.listen(channels.cancel, cancelMessageSchema, listener);
  }

  onInbox(sessionId: string, listener: Listener<unknown>): Promise<() => Promise<void>> {
    return this.listen(channels.inbox(sessionId), null, listener);
  }

  /**
   * Every session's inbox notices through one pattern subscription (what a worker holding many
   * sessions wants, instead of one subscription per session). The listener gets the session id.
   */
  async onAnyInbox(listener: Listener<string>): Promise<() => Promise<void>> {
    if (this.inboxListeners.size === 0) await this.subscriber.psubscribe(INBOX_PATTERN);
    this.inboxListeners.add(listener);
    return async () => {
      if (!this.inboxListeners.delete(listener) || this.inboxListeners.size > 0) return;
      await this.subscriber.punsubscribe(INBOX_PATTERN);
    };
  }

  private async listen<T>(channel: string, schema: z.ZodType<T> | null, listener: Listener<T>): Promise<() => Promise<void>> {
    const wrapped: Listener<unknown> = (message) => {
      if (!schema) return listener(message as T);
      const parsed = schema.safeParse(message);
      if (parsed.success) listener(parsed.data);
    };
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
      await this.subscriber.subscribe(channel);
    }
    set.add(wrapped);
    return async () => {
      const current = this.listeners.get(channel);
      if (!current) return;
      current.delete(wrapped);
      if (current.size === 0) {
        this.listeners.delete(channel);
        await this.subscriber.unsubscribe(channel);
      }
    };
  }
}
