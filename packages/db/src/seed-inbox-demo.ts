import { randomBytes } from 'node:crypto';
import type { Tx } from './audit/audit.repository';
import { appendAudit } from './audit/audit.repository';
import { SecretBox } from './crypto/secret-box';
import { seedFauxAgent } from './seed-faux-agent';

const SYSTEM = { type: 'system', name: 'seed' } as const;
const AGENT = 'demo-inbox';
const TRIGGER = 'demo-inbox-mail';
const SCHEDULE = 'demo-inbox-sweep';
/** The sweep's interval: every 30 minutes. */
const SWEEP_SECONDS = 1800;

const fauxInbox = {
  name: 'faux-inbox',
  kind: 'faux' as const,
  model: 'faux-1',
  contextWindow: 32000,
  maxOutputTokens: 1024,
  // No script: every turn is the answer, quoting the message it answers.
  config: { thinkMs: 200, finalText: 'Filed and answered: {{lastUserMessage}}' },
};

/**
 * The always-on demo: `demo-inbox`, a persistent agent that watches a purchasing inbox. Its trigger
 * (`demo-inbox-mail`, Standard Webhooks; an admin rotates its secret on the Triggers page to send it
 * mail) and its schedule (`demo-inbox-sweep`, every 30 minutes; seeded paused, so a fresh instance
 * starts no work by itself: resume it or press Run now) both deliver to one run: the first delivery
 * starts it, each later one is a message to it, which it answers before waiting again.
 * Created when missing, like the other demos; the trigger only where the instance has an
 * encryption key to seal its secret with.
 */
export async function seedInboxDemo(tx: Tx, teamId: string, adminId: string, encryptionKey: string | undefined): Promise<void> {
  await seedFauxAgent(tx, teamId, {
    endpoint: fauxInbox,
    agent: {
      name: AGENT,
      description: 'Watches the purchasing inbox: answers each mail and sweep, then waits for the next (persistent)',
      systemPrompt: 'You watch a purchasing inbox. Answer each message: check the catalogue, apply the business rules, draft the quote.',
      tools: [],
      persistent: true,
    },
  });
  const agent = await tx.agentTemplate.findUniqueOrThrow({ where: { teamId_name: { teamId, name: AGENT } } });

  if (encryptionKey && !(await tx.trigger.findUnique({ where: { teamId_name: { teamId, name: TRIGGER } } }))) {
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const trigger = await tx.trigger.create({
      data: {
        teamId,
        name: TRIGGER,
        target: 'start_run',
        agentId: agent.id,
        goalTemplate: 'New mail from {{payload.from}}: {{payload.subject}}\n\n{{payload.body}}',
        auth: 'standard_webhooks',
        secretCiphertext: new SecretBox(encryptionKey).seal(secret),
        createdById: adminId,
      },
    });
    await appendAudit(tx, {
      teamId,
      actor: SYSTEM,
      action: 'trigger.created',
      targetType: 'trigger',
      targetId: trigger.id,
      data: { name: TRIGGER, target: 'start_run', agentId: agent.id, auth: 'standard_webhooks' },
    });
  }

  if (!(await tx.schedule.findUnique({ where: { teamId_name: { teamId, name: SCHEDULE } } }))) {
    const schedule = await tx.schedule.create({
      data: {
        teamId,
        name: SCHEDULE,
        agentId: agent.id,
        everySeconds: SWEEP_SECONDS,
        goal: 'Sweep the inbox for anything unanswered ({{scheduledAt}})',
        catchUp: 'none',
        enabled: false,
        nextFireAt: null,
        createdById: adminId,
      },
    });
    await appendAudit(tx, {
      teamId,
      actor: SYSTEM,
      action: 'schedule.created',
      targetType: 'schedule',
      targetId: schedule.id,
      data: { name: SCHEDULE, agentId: agent.id, everySeconds: SWEEP_SECONDS, enabled: false },
    });
  }
}
