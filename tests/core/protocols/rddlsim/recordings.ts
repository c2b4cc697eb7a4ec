/**
 * Access to the recorded real-server sessions in the shared conformance folder (`../shared` next to the
 * repository). Reading fails loudly when the folder is missing: conformance tests must fail, not skip.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { importRddlsimRecordFile } from '../../../../src/core/protocols/rddlsim/recording-formats';
import type { Transcript } from '../../../../src/core/transcript/model';

/** The shared folder next to the repository root. */
export const SHARED = resolve(process.cwd(), '../shared');

/** The recorded rddlsim folder. */
export const RDDLSIM_RECORDINGS = resolve(SHARED, 'conformance/rddlsim');

/** The four complete sessions between rddlsim's Java server and its Java client. */
export const MAIN_SESSIONS = [
  'sysadmin_inst_mdp__1',
  'sysadmin_inst_pomdp__1',
  'elevators_inst_mdp__1',
  'game_of_life_inst_mdp__1',
] as const;

/** Scripted edge-case probes against the real server (client-side captures). */
export const EDGE_CASES = [
  'action_variants',
  'actions_instead_of_round_request',
  'execute_policy',
  'javaclient_term',
  'leading_ws',
  'malformed_round_request',
  'malformed_session_request',
  'minimal_no_header',
  'no_header_flag',
  'number_format',
  'pddl',
  'pipelined',
  'rddl2_domainfile',
  'resource_request',
  'round_request_instead_of_action',
  'slow_client',
  'state_fluent_as_action_default',
  'state_fluent_as_action_nondefault',
  'terminate_when',
  'too_many_actions',
  'typed_actions',
  'unknown_action',
  'unknown_instance',
  'wrong_root_session_request',
  'ws_no_decl',
] as const;

/** Raw bytes of a file below the rddlsim recordings folder. */
export function recordingBytes(relative: string): Uint8Array {
  return new Uint8Array(readFileSync(resolve(RDDLSIM_RECORDINGS, relative)));
}

/** A main session (`sysadmin_inst_mdp__1`) or edge case (`edge-cases/pipelined`) as a transcript. */
export function loadRecording(name: string): Transcript {
  const file = `${name}.transcript`;
  return importRddlsimRecordFile(recordingBytes(file), { name: file });
}

/** Every recording: the main sessions and the edge cases, by name. */
export function allRecordings(): [string, Transcript][] {
  return [
    ...MAIN_SESSIONS.map((name): [string, Transcript] => [name, loadRecording(name)]),
    ...EDGE_CASES.map((name): [string, Transcript] => [
      `edge-cases/${name}`,
      loadRecording(`edge-cases/${name}`),
    ]),
  ];
}

/** The text of an RDDL file from the shared IPPC folders or the probe test domains. */
export function rddlText(relative: string): string {
  return readFileSync(resolve(SHARED, relative), 'utf8');
}
