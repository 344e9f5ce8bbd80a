// The Costs page's reads: a team's model and edge spend by day, and one run's spend call by call.
export { teamModelSpend, teamEdgeSpend, type ModelSpendRow, type EdgeSpendRow } from './team-spend.repository';
export { runModelCalls, runEdgeSpend, type RunModelCall, type RunEdgeSpend } from './run-cost.repository';
