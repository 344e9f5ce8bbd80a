// Wake-ups of waiting sessions: what a wait is resolved against (the budget a session was refused).
export { lastRefusedReservation, type RefusedReservation } from './budget-wait.repository';
