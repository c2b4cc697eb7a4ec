/** The server configuration a MASSim match setup of the page stands for. */
import { parseMassimConfig, quickMassimConfig, sampleMassimConfig } from '../../../envs/massim';
import type { MassimServerConfig } from '../../../envs/massim/api';
import type { MassimMatchSetup } from './options';

/** The server configuration of a session or an evaluation. */
export function serverConfig(match: MassimMatchSetup): MassimServerConfig {
  if (match.kind === 'quick') return quickMassimConfig(match.setup);
  if (match.kind === 'contest') return sampleMassimConfig();
  const includes = new Map(Object.entries(match.includes));
  const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);
  // Files picked in the browser come without their folders: an include is found by its name alone.
  return parseMassimConfig(match.text, {
    source: match.name,
    readInclude: (path) => includes.get(path) ?? includes.get(baseName(path)),
  });
}
