/**
 * The calls a MASSim team runtime answers, apart from the runtime itself, so the protocol's definition can
 * name them without loading the policy runtime (and its compiler) with the page.
 */

/** The call that answers one step of a team: `call(MASSIM_TEAM_STEP, [batch], {})`. */
export const MASSIM_TEAM_STEP = 'massim-team-step';
/** The call that hands one wire-level event to the policy: `call(MASSIM_WIRE_EVENT, [event], {})`. */
export const MASSIM_WIRE_EVENT = 'massim-wire-event';
