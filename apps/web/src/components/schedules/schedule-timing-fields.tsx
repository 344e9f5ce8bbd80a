'use client';

import { useMemo } from 'react';
import { Field, Input } from '@/components/ui/field';
import { knownTimeZones } from '@/lib/schedule-format';
import type { ScheduleDraft } from '@/lib/schedule-draft';

/**
 * When it fires: a cron (5 fields, or 6 with seconds first) or every N seconds, and the IANA time
 * zone a cron is read in. The zone field suggests the zones this browser knows; the server decides.
 */
export function ScheduleTimingFields({ draft, set }: { draft: ScheduleDraft; set: (patch: Partial<ScheduleDraft>) => void }) {
  const zones = useMemo(knownTimeZones, []);
  return (
    <fieldset className="flex flex-col gap-2" data-testid="schedule-timing">
      <legend className="mb-1 text-xs font-medium text-muted">When</legend>
      <div className="flex gap-4 text-[13px]">
        <label className="flex items-center gap-1.5">
          <input type="radio" name="timing" checked={draft.timing === 'cron'} onChange={() => set({ timing: 'cron' })} data-testid="schedule-timing-cron" />
          Cron
        </label>
        <label className="flex items-center gap-1.5">
          <input type="radio" name="timing" checked={draft.timing === 'every'} onChange={() => set({ timing: 'every' })} data-testid="schedule-timing-every" />
          Every N seconds
        </label>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        {draft.timing === 'cron' ? (
          <Field label="Cron" htmlFor="schedule-cron" hint="minute hour day-of-month month day-of-week (6 fields: seconds first), in the time zone">
            <Input
              id="schedule-cron"
              value={draft.cron}
              onChange={(event) => set({ cron: event.target.value })}
              placeholder="0 9 * * 1-5"
              className="font-mono"
              autoComplete="off"
              data-testid="schedule-cron"
            />
          </Field>
        ) : (
          <Field label="Every (seconds)" htmlFor="schedule-every" hint="Ticks align to the Unix epoch (every 3600: on the hour, UTC)">
            <Input
              id="schedule-every"
              type="number"
              min={1}
              value={draft.everySeconds}
              onChange={(event) => set({ everySeconds: event.target.value })}
              placeholder="3600"
              data-testid="schedule-every"
            />
          </Field>
        )}
        <Field label="Time zone" htmlFor="schedule-timezone" hint="IANA name, e.g. Europe/Berlin; daylight-saving changes fire once">
          <Input
            id="schedule-timezone"
            value={draft.timezone}
            onChange={(event) => set({ timezone: event.target.value })}
            list="schedule-timezones"
            autoComplete="off"
            data-testid="schedule-timezone"
          />
          <datalist id="schedule-timezones">
            {zones.map((zone) => (
              <option key={zone} value={zone} />
            ))}
          </datalist>
        </Field>
      </div>
    </fieldset>
  );
}
