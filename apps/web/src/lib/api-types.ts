import type { AppRouter } from '@looplane/api';
import type { inferRouterOutputs } from '@trpc/server';

/** What each procedure returns, as the client sees it (superjson keeps Dates as Dates). */
export type RouterOutputs = inferRouterOutputs<AppRouter>;
export type Member = RouterOutputs['teams']['members'][number];
export type InvitationRow = RouterOutputs['teams']['invitations'][number];
export type TokenRow = RouterOutputs['tokens']['list'][number];
export type CreatedToken = RouterOutputs['tokens']['create'];
export type RunListPage = RouterOutputs['runs']['list'];
export type RunRow = RunListPage['runs'][number];
export type RunDetail = RouterOutputs['runs']['get'];
export type AgentView = RouterOutputs['agents']['get'];
