/**
 * The shared reference folder beside the repository (`../shared`): IPPC RDDL files and rddlsim's recorded
 * sessions. Tests that need it fail, never skip, when it is missing.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/** The shared folder beside the repository root. */
export const SHARED = resolve(process.cwd(), '../shared');

/** A path below the shared folder; throws (failing the test) when it does not exist. */
export function sharedPath(relative: string): string {
  const path = resolve(SHARED, relative);
  if (!existsSync(path)) throw new Error(`missing shared material: ${path}`);
  return path;
}
