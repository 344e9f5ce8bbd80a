import { z } from 'zod';
import { idSchema } from '../schemas';

export const spendInput = z.object({
  /** The window: the last `days` days, today included (UTC days). */
  days: z.int().min(1).max(90).default(30),
});

export const runCostInput = z.object({ runId: idSchema });
