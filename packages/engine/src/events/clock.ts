/** Wall time, in epoch milliseconds. Only event timestamps read it, so replay never depends on it. */
export interface Clock {
  now(): number;
}
