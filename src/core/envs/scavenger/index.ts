/**
 * The scavenger world of the GAMA protocol: a commons-harvest grid (walls, regrowing resources,
 * scavengers that move, turn and tag), its six scenarios, egocentric observations and social metrics.
 */
export { SCAVENGER_ACTIONS, isScavengerAction, type ScavengerAction, type Facing } from './actions';
export {
  parseScenarioMap,
  renderScenarioMap,
  Tile,
  TILE_CHARACTERS,
  type ScavengerScenario,
} from './scenario';
export { SCAVENGER_SCENARIOS, findScavengerScenario } from './scenarios';
export {
  ScavengerWorld,
  Cell,
  RESOURCE_REWARD,
  type ScavengerWorldOptions,
  type Scavenger,
  type ActionOutcome,
  type ScavengerWorldSnapshot,
} from './world';
export {
  observe,
  observeLegend,
  observationWindow,
  OBSERVATION_COLOURS,
  SELF,
  type ObservationKind,
  type ObservationOptions,
  type ObservationWindow,
  type ScavengerObservation,
} from './observation';
export { socialMetrics, type SocialMetrics, type ScavengerOutcome } from './metrics';
