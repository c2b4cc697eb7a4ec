/**
 * Where our scenario follows the real MASSim 2022 server to the letter although its documentation says
 * otherwise, where it deliberately differs, and why. Shown in the playground's scenario notes; the same
 * list is explained in docs/massim-scenario.md.
 */
import type { MassimScenarioNote } from './api';

export const MASSIM_SCENARIO_NOTES: readonly MassimScenarioNote[] = [
  {
    id: 'speed-zero-move',
    title: 'Speed 0 still moves one cell',
    decision: 'faithful',
    text:
      'The move loop checks the speed only after a step, so an agent whose role gives speed 0 for its load ' +
      '(a worker carrying 3 things) still moves one cell and gets partial_success (success for one direction).',
  },
  {
    id: 'energy-while-deactivated',
    title: 'Energy recharges while deactivated',
    decision: 'faithful',
    text:
      'The documentation says energy stays 0; the server adds stepRecharge every step of the deactivation ' +
      'and then sets refreshEnergy. Percepts show the rising value.',
  },
  {
    id: 'clear-event-extra-step',
    title: 'A clear event deactivates one step longer',
    decision: 'faithful',
    text:
      'Clear events fire after the countdown of the step, so an agent caught in one stays deactivated for ' +
      'deactivatedDuration + 1 steps; hitting 0 energy again while deactivated restarts the countdown.',
  },
  {
    id: 'random-fail-everything',
    title: 'Random failure hits every action',
    decision: 'faithful',
    text:
      'failed_random (randomFail %) applies to skip and to the no_action of an agent that did not answer, ' +
      'after failed_status and failed_role. clear has a second random roll with the role’s clear chance.',
  },
  {
    id: 'unknown-action-type',
    title: 'Unknown action types fail with failed_role',
    decision: 'faithful',
    text: 'A type the role does not list, including a misspelt one like "fly", is failed_role; "adapt" counts as "adopt".',
  },
  {
    id: 'connect-any-team',
    title: 'connect does not check teams',
    decision: 'faithful',
    text: 'The documentation says both agents must be teammates; the server only checks that they name each other.',
  },
  {
    id: 'clear-pays-for-nothing',
    title: 'A clear on an empty cell still costs energy',
    decision: 'faithful',
    text: 'failed_target from clear means nothing was removed or hit; the energy cost has been paid already.',
  },
  {
    id: 'survey-zone-centre',
    title: 'survey goal/role measures to the zone centre',
    decision: 'faithful',
    text: 'The distance reported is to the nearest zone centre, not to the nearest zone cell.',
  },
  {
    id: 'norm-level',
    title: 'Norm percepts have no level',
    decision: 'faithful',
    text: 'The documentation shows a "level" key in norms; the server never sends it, so neither do we.',
  },
  {
    id: 'adopt-norm-role',
    title: 'Adopt norms restrict the same role every time',
    decision: 'faithful',
    text:
      'The server means to draw a role in use but always takes the first one in Java hash-map order ' +
      '(with the standard roles: "default" whenever someone still has it). We take the same role.',
  },
  {
    id: 'tie-ranking',
    title: 'Equal scores get different ranks',
    decision: 'faithful',
    text:
      'sim-end ranks are positions after sorting by score; ties are broken by Java hash-map order of the team ' +
      'names (A before B), so a 0:0 draw reports ranking 1 for A and 2 for B.',
  },
  {
    id: 'rotate-final-cells',
    title: 'rotate checks only the final cells',
    decision: 'faithful',
    text: 'Cells swept through on the way are not checked; the rotation fails if another agent is in the cluster.',
  },
  {
    id: 'goal-zone-moves-anywhere',
    title: 'Moved goal zones can land on obstacles',
    decision: 'faithful',
    text:
      'After a submission the goal zone under the agent moves (moveProbability) to any random cell that is not ' +
      'already a zone centre; of overlapping zones, the first in Java hash-map order of centres moves.',
  },
  {
    id: 'small-grid-duplicates',
    title: 'Tiny grids show cells twice',
    decision: 'faithful',
    text: 'When the vision diamond is wider than the grid, wrapped cells are perceived once per time they fall in vision.',
  },
  {
    id: 'clear-damage-table',
    title: 'Clear damage beyond the table',
    decision: 'fixed',
    text:
      'The server uses clearDamage[distance], the last entry beyond the table, and crashes when the distance ' +
      'equals the table length; we use the last entry then too.',
  },
  {
    id: 'survey-no-zones',
    title: 'Surveying zones on a map without them',
    decision: 'fixed',
    text: 'The server crashes on survey goal/role when there is no such zone; we answer failed_target.',
  },
  {
    id: 'entity-kinds',
    title: 'Several entity kinds',
    decision: 'fixed',
    text:
      'Agents per team are the sum of the "entities" counts (their names are ignored); the server counts the ' +
      'same but creates agents wrongly when there is more than one kind.',
  },
  {
    id: 'map-generation',
    title: 'Maps come from our generator',
    decision: 'simplified',
    text:
      'Same configuration keys and rules (cave automaton, borders, zones on free cells, stacked start clusters, ' +
      'dispensers off the start cells), but our seeded PRNG: a seed gives another map than on the real server. ' +
      'Bitmap maps ("file") and setup files are not read.',
  },
  {
    id: 'execution-order',
    title: 'Reproducible execution order',
    decision: 'simplified',
    text:
      'Actions run in a shuffled order in both; ours comes from the seed, so a run can be replayed exactly, ' +
      'while the real server’s order differs from run to run.',
  },
  {
    id: 'array-order',
    title: 'Order inside percept arrays',
    decision: 'simplified',
    text:
      'Keys come in the real server’s order; things, tasks and norms are listed in our own order (the server’s ' +
      'comes from Java hash sets and is arbitrary). Agents must not depend on either.',
  },
  {
    id: 'config-includes',
    title: 'Configuration includes',
    decision: 'simplified',
    text:
      '"$(file.json)" must stand for a whole JSON value, resolved against the including file’s folder, as in ' +
      'every shipped configuration; the server would also splice text in elsewhere.',
  },
];
