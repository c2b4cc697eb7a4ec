/**
 * The rddlsim protocol as rddlsim's own server and clients speak it: framing and codec, the machines of
 * both roles, the emulated server (host), the client adapter with its policy-level API, and the emulated
 * session runner. See docs/rddlsim-protocol.md.
 */
export {
  javaDoubleToString,
  javaIntegerToString,
  parseJavaBoolean,
  parseJavaDouble,
  parseJavaInt,
} from './java-format';
export {
  parseXml,
  childElements,
  descendantElements,
  firstDescendant,
  firstChildValue,
  textContent,
  type XmlDocument,
  type XmlElement,
  type XmlNode,
  type XmlCharacterData,
} from './xml';
export { XML_DECLARATION, XML_HEADER, escapeXmlText } from './xml-text';
export {
  NulSplitter,
  ServerStreamSplitter,
  encodeFrame,
  DEFAULT_MAX_MESSAGE_BYTES,
  type WireFrame,
  type WireFraming,
  type SplitterOptions,
  type ServerSplitterOptions,
} from './framing';
export type * from './messages';
export { CLIENT_ROOTS, SERVER_ROOTS } from './messages';
export {
  parseServerMessage,
  parseClientMessage,
  readClientMessage,
  serialiseServerMessage,
  serialiseClientMessage,
  NULL_SESSION_INIT_TEXT,
} from './codec';
export { decodeTranscriptMessage, describeDecoded, type DecodedMessage } from './decoded-message';
export { rddlsimServerMachine, type ServerMachineState, type ServerPhase } from './server-machine';
export { rddlsimClientMachine, type ClientMachineState, type PendingAnswer } from './client-machine';
export {
  readSessionRequest,
  readExecutePolicy,
  readActions,
  type ActionsReading,
  type SessionRequestReading,
} from './server-reading';
export {
  RddlsimHost,
  HostConnection,
  rddlsimTaskText,
  type HostedInstance,
  type RddlsimHostOptions,
  type HostEffect,
  type HostNote,
  type HostStep,
  type HostSnapshot,
} from './host';
export { RddlsimClient, decodeTask, type RddlsimClientOptions, type ClientEvent } from './client';
export type * from './policy-api';
export { decodeObservation, decodeFluentValue, fluentKey } from './observation';
export {
  encodeActions,
  encodeValue,
  instanceSummary,
  type ActionProblem,
  type EncodedActions,
  type EncodeOptions,
} from './action-encoding';
export { generatePolicyTypes } from './policy-types';
export { starterPolicy, starterPolicyDomain, STARTER_POLICY_MARK } from './starter-policy';
export { createLocalPolicy, type SessionPolicy, type PolicyHook, type RoundSummary } from './session-policy';
export {
  EmulatedSession,
  EMULATED_CONNECTION,
  type EmulatedSessionOptions,
  type EmulatedSessionStatus,
  type SessionStepReport,
} from './session';
export { interleaveByCause, directionOfRoot, rootName, type DirectedText } from './interleave';
