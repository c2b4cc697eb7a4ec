/**
 * What can go wrong between the page and the bridge, each with a sentence telling the learner what to do.
 * The close codes the bridge uses to refuse a page map to these; so does a socket that never opened.
 */
import { ProtoplayError } from '../errors';
import { BridgeCloseCode } from './control-protocol';

/** Why the bridge client failed. */
export type BridgeErrorCode =
  | 'bridge.unreachable'
  | 'bridge.local-network-access'
  | 'bridge.token'
  | 'bridge.origin'
  | 'bridge.busy'
  | 'bridge.protocol'
  | 'bridge.gone'
  | 'bridge.unknown-target'
  | 'bridge.open'
  | 'bridge.channel'
  | 'bridge.http';

/** An error of the bridge client: `code` says which, the message what to do. */
export class BridgeError extends ProtoplayError {
  declare readonly code: BridgeErrorCode;

  constructor(code: BridgeErrorCode, message: string) {
    super(code, message);
    this.name = 'BridgeError';
  }
}

/** What the page knows about where it runs, to explain a socket that never opened. */
export interface PageSurroundings {
  /** The playground runs in an iframe. */
  embedded?: boolean;
  /** The page's own origin (`https://example.org`). */
  pageOrigin?: string;
  /**
   * The browser's Local Network Access permission for this page, when it can tell (the Permissions API's
   * `loopback-network` or `local-network-access` state); undefined when unknown.
   */
  localNetworkPermission?: () => Promise<'granted' | 'denied' | 'prompt' | undefined>;
}

/** The iframe attribute a page embedding the playground needs for the bridge (docs/bridge.md). */
export const LOOPBACK_IFRAME_ATTRIBUTE = 'allow="loopback-network"';

function isLoopbackOrigin(origin: string | undefined): boolean {
  if (origin === undefined) return false;
  return /^https?:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/.test(origin);
}

/**
 * Why a socket to the bridge at `url` closed before the bridge welcomed the page. A refusal carries its
 * close code; a socket that never opened is either no bridge or the browser's Local Network Access.
 */
export async function explainRefusal(
  url: string,
  close: { code: number; reason: string } | undefined,
  surroundings: PageSurroundings,
): Promise<BridgeError> {
  switch (close?.code) {
    case BridgeCloseCode.wrongToken:
      return new BridgeError(
        'bridge.token',
        `the bridge at ${url} refused the token: open the link protoplay bridge printed when it started (each start makes a new token)`,
      );
    case BridgeCloseCode.originNotAllowed:
      return new BridgeError(
        'bridge.origin',
        `the bridge at ${url} does not admit this page (${close.reason}): start it with --origin ${surroundings.pageOrigin ?? "this page's origin"}`,
      );
    case BridgeCloseCode.tooManyPages:
      return new BridgeError(
        'bridge.busy',
        `the bridge at ${url} is busy: ${close.reason}; close another tab`,
      );
    case BridgeCloseCode.noHello:
    case BridgeCloseCode.protocolError:
    case BridgeCloseCode.tooBig:
      return new BridgeError(
        'bridge.protocol',
        `the bridge at ${url} closed the connection: ${close.reason}`,
      );
  }
  const permission = await surroundings.localNetworkPermission?.().catch(() => undefined);
  if (permission === 'denied')
    return new BridgeError(
      'bridge.local-network-access',
      `the browser refused this page access to the local network, so it cannot reach the bridge at ${url}: allow "local network access" in the site's settings${surroundings.embedded ? `; an embedded playground also needs ${LOOPBACK_IFRAME_ATTRIBUTE} on its iframe` : ''}`,
    );
  const embeddedRemotely = surroundings.embedded && !isLoopbackOrigin(surroundings.pageOrigin);
  return new BridgeError(
    'bridge.unreachable',
    embeddedRemotely
      ? `cannot reach the bridge at ${url}: is protoplay bridge running? If it is, the browser refused local network access: the iframe embedding the playground needs ${LOOPBACK_IFRAME_ATTRIBUTE}`
      : `cannot reach the bridge at ${url}: is protoplay bridge running? (it prints the link to open)`,
  );
}
