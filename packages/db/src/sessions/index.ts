// Sessions: reads over a session's log (its chain of links from the root).
export { modelSpendAfter, type LogLink, type ModelSpend } from './branch-spend.repository';
