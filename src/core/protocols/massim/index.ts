/**
 * The MASSim protocol (massim_2022 as the real server speaks it): framing and codec, the machines of both
 * roles, the emulated server, the agent client with team policies, and an in-memory match runner.
 */
export { NulFrameSplitter, countFrameAgainstPacketLimit, type SplitFrame } from './framing';
export { parseOrgJson, javaString, type OrgJsonValue, type OrgJsonError } from './org-json';
export { findJsonSyntaxError, type JsonSyntaxProblem } from '../../json/strict-json';
export {
  readClientFrame,
  decodeServerFrame,
  type ClientFrameReading,
  type ServerFrameDecoding,
  type ServerFrameProblem,
} from './codec';
export {
  serializeMassimMessage,
  serverMessageTypes,
  clientMessageTypes,
  type MassimMessageType,
  type MassimServerMessage,
  type MassimClientMessage,
  type MassimAuthRequest,
  type MassimAuthResponse,
  type MassimSimStart,
  type MassimRequestAction,
  type MassimActionMessage,
  type MassimSimEnd,
  type MassimBye,
  type MassimStatusRequest,
  type MassimStatusResponse,
} from './messages';
export { massimRules, type MassimRule, type MassimRuleId, type MassimRuleSeverity } from './rules';
export type { MassimViolation } from './violation';
export {
  massimClientMachine,
  acceptServerMessage,
  type MassimJudgedMessage,
  type MassimClientMachineState,
  type MassimClientPhase,
  type MassimSimulationPhase,
} from './client-machine';
export {
  createMassimServerMachine,
  type MassimServerMachineOptions,
  type MassimServerMachineState,
  type MassimServerPhase,
} from './server-machine';
export { realTimeScheduler, VirtualScheduler, type MassimScheduler, type TimerHandle } from './scheduler';
export {
  MassimHost,
  type MassimHostOptions,
  type MassimHostConnection,
  type MassimConnectionSink,
  type MassimHostEvent,
  type MassimHostStatus,
  type MassimHostViolation,
  type MassimRaceNote,
  type MassimWorldAnnotation,
  type MassimScoreAnnotation,
} from './host';
export {
  MassimAgentClient,
  createTeamDecide,
  type MassimAgentClientOptions,
  type MassimAgentEvent,
  type MassimDecide,
  type MassimDecisionRequest,
} from './client';
export {
  MassimMatchRunner,
  type MassimMatchRunnerOptions,
  type MassimMatchResult,
  type MassimRunnerAgentEvent,
  type MassimWireEvent,
  type MassimWireReply,
  type MassimWireTeam,
} from './runner';
export {
  EagerFrame,
  RequestActionFrame,
  RequestActionWriter,
  type MassimOutgoingFrame,
  type RequestActionHeader,
} from './outgoing';
export {
  batchedTeamDecide,
  createTeamBatchAnswerer,
  type MassimTeamBatch,
  type MassimTeamBatchReply,
  type MassimTeamBatchTransport,
} from './team-batch';
export { MassimRecording, type RecordedFrame } from './recording';
export { MassimWorldPacker } from './world-packer';
export { parseMassimLaunch, msUntilLaunch, type MassimLaunch } from './launch';
export { MASSIM_PROTOCOL_NOTES, type MassimProtocolNote } from './notes';
export type * from './policy-api';
