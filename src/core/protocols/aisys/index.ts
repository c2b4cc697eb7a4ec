/**
 * The aisys protocol (aisysprojserver, the AI course server): the emulated server (host) and its
 * application, the client, the machines of both roles, the codec, the recording formats, the reader and
 * the policy runtime. See docs/aisys-protocol.md.
 */
export { aisysProtocol, prettyPrintAisys } from './protocol';
export { AisysHost, type AisysHostOptions, type AisysHostEvent } from './host';
export {
  AisysServer,
  HttpProblem,
  type AisysServerOptions,
  type RunRecord,
  type AgentResults,
} from './server';
export {
  AisysClient,
  DEFAULT_RETRY,
  outcomeText,
  type AisysClientOptions,
  type AisysClientEvent,
  type AisysClientOutcome,
  type RetryPolicy,
} from './client';
export { AisysSession, AISYS_SESSION_CONNECTION, type AisysSessionOptions } from './session';
export { aisysClientMachine, aisysServerMachine } from './machines';
export { readActRequest, readJsonBody, MAX_CONTENT_LENGTH, type ActRequestReading } from './act-request';
export {
  actPathEnvironment,
  aisysChannel,
  actRequest,
  encodeRequestBody,
  readResponse,
  type ResponseReading,
} from './codec';
export {
  AISYS_RECORDING_FORMATS,
  aisysHarFormat,
  aisysHttpTextFormat,
  aisysJsonlFormat,
  exchangesToTranscript,
  type RecordedExchange,
} from './recording';
export { AISYS_MESSAGE_TYPES, createAisysReader, perceptRows } from './reader';
export {
  AISYS_ENVIRONMENTS,
  AISYS_ENVIRONMENT_CLASSES,
  findAisysEnvironment,
  type AisysEnvironmentPreset,
} from './environments';
export { AISYS_SAMPLES, DEFAULT_AISYS_SAMPLE } from './samples';
export { aisysPolicyTypes } from './policy-types';
export { AisysPolicyRuntime } from './policy-runtime';
export { localDecide, supervisedDecide, type LocalDecideOptions, type PolicyCaller } from './decide';
export * from './policy-api';
export type * from './messages';
export { flaskJson, pythonJsonDumps, PythonFloat } from './python-json';
