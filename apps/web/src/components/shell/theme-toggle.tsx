'use client';

import { Monitor, Moon, Sun } from 'lucide-react';
import { useSyncExternalStore } from 'react';
import { Button } from '@/components/ui/button';
import { nextThemePreference, readThemePreference, setThemePreference, subscribeTheme, systemPrefersDark } from './theme';

const ICONS = { light: Sun, dark: Moon, system: Monitor } as const;

/** Switches the theme (kept in localStorage); the third click goes back to following the OS. */
export function ThemeToggle() {
  const preference = useSyncExternalStore(subscribeTheme, readThemePreference, () => 'system' as const);
  const Icon = ICONS[preference];
  const label = `Theme: ${preference}. Click to switch.`;
  return (
    <Button
      variant="ghost"
      size="icon"
      data-testid="theme-toggle"
      data-theme-preference={preference}
      aria-label={label}
      title={label}
      onClick={() => setThemePreference(nextThemePreference(preference, systemPrefersDark()))}
    >
      <Icon aria-hidden className="size-4" />
    </Button>
  );
}
