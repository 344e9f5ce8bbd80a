'use client';

import type { Role } from '@looplane/shared';
import { createContext, useContext, type ReactNode } from 'react';

/** The team the current page is about and the viewer's role in it (resolved on the server). */
export interface TeamScope {
  team: { id: string; slug: string; name: string };
  role: Role;
  user: { id: string; email: string; name: string | null };
}

const TeamContext = createContext<TeamScope | null>(null);

export function TeamScopeProvider({ value, children }: { value: TeamScope; children: ReactNode }) {
  return <TeamContext.Provider value={value}>{children}</TeamContext.Provider>;
}

/** The current team scope; only valid below `/t/[team]`. */
export function useTeamScope(): TeamScope {
  const scope = useContext(TeamContext);
  if (!scope) throw new Error('useTeamScope must be used inside /t/[team]');
  return scope;
}
