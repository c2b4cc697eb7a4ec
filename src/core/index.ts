/**
 * The engine as a library: what `import { ... } from 'protoplay'` offers. A small, stable surface over the
 * same code the playground and the command line run; docs/library.md shows it in use. Everything else in
 * src/core may change between versions.
 */

// Playing: a whole rddlsim session with a policy function.
export { runSession, type RunSessionOptions, type SessionResult } from './protocols/rddlsim/run-session';
export type { RoundSummary } from './protocols/rddlsim/session-policy';
export type {
  Action,
  Actions,
  ActFunction,
  FluentValue,
  Observation,
  ObservedFluent,
  PolicyContext,
} from './protocols/rddlsim/policy-api';

// RDDL: the built-in example domains, loading and checking texts.
export {
  EXAMPLE_DOMAINS,
  exampleSources,
  checkRddl,
  loadRddl,
  type ExampleDomain,
  type RddlDiagnostic,
  type RddlModel,
  type RddlSource,
} from './envs/rddl/index';

// Recordings of any protocol: the registered protocols, reading, checking and writing transcripts.
export { PROTOCOLS, findProtocol, readOneTranscript } from './protocols/registry';
export type { Protocol } from './protocols/contract';
export {
  inspectRecording,
  inspectionIsClean,
  type InspectedSession,
  type InspectionReport,
} from './protocols/inspection';
export { parseTranscriptJson, serialiseTranscript } from './transcript/json-format';
export type { Annotation, Transcript, TranscriptMessage } from './transcript/model';

export { ProtoplayError, describeError, type SourceLocation } from './errors';
