/**
 * The GAMA scavengers protocol: codec with GAMA's JSON spacing, the GAMA side (the simulation) and the API
 * side (a policy answering requests) as sans-IO endpoints, the machines of both roles, the transcript
 * reader, the frame-log recording format, samples and policy types.
 */
export {
  gamaJson,
  encodeScenario,
  encodeConnect,
  encodeRequest,
  encodeReply,
  readGamaMessage,
  readReply,
  channelOf,
  type GamaJsonValue,
  type GamaMessageReading,
  type GamaReplyReading,
} from './codec';
export type * from './messages';
export { GAMA_MESSAGE_TYPES } from './messages';
export {
  GamaSimulation,
  type GamaSimulationOptions,
  type GamaEpisodeResult,
  type GamaScavengerResult,
  type GamaNote,
} from './simulation';
export { GamaApi, type GamaApiOptions, type GamaDecide, type GamaDecision } from './api';
export { linkInMemory, type InMemoryLinkOptions } from './in-memory-link';
export { playGamaEpisodes, type GamaEpisodesOptions } from './episodes';
export { gamaServerMachine, type GamaServerMachineState } from './server-machine';
export { gamaClientMachine, type GamaClientMachineState } from './client-machine';
export { GamaTranscriptReader, type GamaMessageSummary } from './reader';
export { gamaFrameLogFormat, readGamaFrameLog, writeGamaFrameLog } from './recording';
export { GamaPolicyRuntime, GAMA_ACT, GAMA_ACT_SIGNATURE } from './policy-runtime';
export { GAMA_SAMPLES } from './samples';
export { gamaPolicyTypes } from './policy-types';
export { GAMA_PROTOCOL_NOTES, type GamaProtocolNote } from './notes';
export { gamaProtocol, prettyPrintGama, GAMA_DEFAULT_PORT } from './protocol';
