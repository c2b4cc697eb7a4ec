/** The policy runtime: compiles, loads and calls user policies, and keeps them within a time budget. */
export type {
  CallOutcome,
  CallSite,
  LoadOutcome,
  PolicyFault,
  PolicyLanguage,
  PolicyLevel,
  PolicyLogLine,
  PolicySource,
} from './types';
export { POLICY_LEVELS, type PolicyLevelContract } from './levels';
export { compilePolicy, type CompiledPolicy, type CompileOutcome } from './compile';
export { findSyntaxError } from './syntax-check';
export { PolicyRuntime, findNonData, type PolicyHelpers } from './runtime';
export {
  PolicySupervisor,
  POLICY_LOAD_LIMIT_MS,
  budgetExceededMessage,
  type PolicyEndpoint,
  type PolicySupervisorOptions,
} from './supervisor';
export { createInProcessEndpoint } from './in-process-endpoint';
export { withDeadline, wallClockTimer, type DeadlineOutcome, type DeadlineTimer } from './deadline';
