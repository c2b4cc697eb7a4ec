/**
 * The MASSim 2022 scenario ("Agents Assemble III"): configuration parsing, presets and simulations.
 * Types are in `./api`.
 */
export { parseMassimConfig, parseMassimSimConfig, massimAccountNames, resolveIncludePath } from './config';
export {
  quickMassimConfig,
  sampleMassimConfig,
  sampleSimConfig,
  standardRoles,
  defaultServerSettings,
} from './presets';
export { createSimulation } from './simulation';
export { MASSIM_SCENARIO_NOTES } from './notes';
export type * from './api';
