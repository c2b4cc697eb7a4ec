/** Errors raised by src/core carry a stable code and, when they point into some text, a location. */

/** A position in a named text (an RDDL file, a policy, a wire message). Lines and columns start at 1. */
export interface SourceLocation {
  /** Which text: a file name, "policy.ts", "message 12"... */
  source?: string;
  line: number;
  column: number;
  endLine?: number;
  endColumn?: number;
  /** 0-based character offset, when known. */
  offset?: number;
}

/**
 * An error a user can act on: a short message, a machine-readable code and, when applicable, where.
 * Never carries a stack trace to the UI: `format()` is what users see.
 */
export class ProtoplayError extends Error {
  readonly code: string;
  readonly location?: SourceLocation;

  constructor(code: string, message: string, location?: SourceLocation) {
    super(message);
    this.name = 'ProtoplayError';
    this.code = code;
    this.location = location;
  }

  /** "file:line:column: message" when located, otherwise the message. */
  format(): string {
    return formatLocated(this.message, this.location);
  }
}

export function formatLocated(message: string, location?: SourceLocation): string {
  if (!location) return message;
  const where = `${location.source ? `${location.source}:` : ''}${location.line}:${location.column}`;
  return `${where}: ${message}`;
}

/** Turns anything thrown into a one-line, user-facing message (no stack). */
export function describeError(error: unknown): string {
  if (error instanceof ProtoplayError) return error.format();
  if (error instanceof Error) return error.message;
  return String(error);
}
