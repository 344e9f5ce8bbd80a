import { browserUrl, listenLine, type ListenAddress } from './listen-address';
import type { SeedSummary } from './seed';

/** The lines printed once the dashboard answers: where it runs, who can reach it and how to sign in. */
export function signInHint(address: ListenAddress, seeded: SeedSummary, adminPasswordFromEnv: boolean): string[] {
  const lines = [`Looplane is running at ${browserUrl(address)} — sign in as ${seeded.adminEmail}`];
  if (seeded.generatedPassword) {
    lines.push(`  password: ${seeded.generatedPassword}`);
    lines.push('  (generated for this new installation and shown on this start only: store it now)');
  } else if (seeded.adminCreated && adminPasswordFromEnv) {
    lines.push('  password: the value of LOOPLANE_ADMIN_PASSWORD');
  } else {
    lines.push('  password: the one set when this installation was first started (printed then, or LOOPLANE_ADMIN_PASSWORD)');
  }
  if (seeded.bootstrapTokenCreated) lines.push('  API token: LOOPLANE_BOOTSTRAP_TOKEN is now an admin token of the demo team');
  lines.push(listenLine(address));
  lines.push('Press Ctrl-C to stop.');
  return lines;
}
