import { emptyReport } from '../limits';
import type { DriverProbe, SandboxDriver } from '../types';

/**
 * Asks every configured driver what works on this host, for the worker's start-up log and the
 * Settings page (a microVM's probe boots a guest: seconds under TCG). Never throws: a driver that fails or hangs is reported unavailable with the reason.
 */
export async function probeDrivers(drivers: SandboxDriver[], timeoutMs = 90_000): Promise<DriverProbe[]> {
  return Promise.all(
    drivers.map(async (driver) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<DriverProbe>((resolve) => {
        timer = setTimeout(
          () => resolve({ driver: driver.name, available: false, reason: `the probe did not finish within ${timeoutMs} ms`, limitsEnforced: emptyReport() }),
          timeoutMs,
        );
      });
      try {
        return await Promise.race([driver.probe(), timeout]);
      } catch (error) {
        return { driver: driver.name, available: false, reason: `probe failed: ${(error as Error).message}`, limitsEnforced: emptyReport() };
      } finally {
        clearTimeout(timer);
      }
    }),
  );
}
