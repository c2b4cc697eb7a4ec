/**
 * The link that gives the page a bridge: `#bridge=ws://127.0.0.1:8787&token=...` in the page address's
 * fragment, which browsers never send to a server (so the token stays out of server logs and Referer).
 */

/** Where the bridge is and the token that opens it. */
export interface BridgeAddress {
  /** `ws://127.0.0.1:8787`. */
  url: string;
  token: string;
  /**
   * Set by a page shown in another page's iframe (a worker cannot tell): an unreachable bridge then may be
   * the iframe's missing `allow="loopback-network"`, and the error says so.
   */
  embedded?: boolean;
}

/** The page address with the bridge in its fragment (other fragment options are kept). */
export function bridgeLink(page: string, address: BridgeAddress): string {
  const hash = page.indexOf('#');
  const base = hash < 0 ? page : page.slice(0, hash);
  const kept = hash < 0 ? '' : page.slice(hash + 1);
  const bridge = `bridge=${address.url}&token=${encodeURIComponent(address.token)}`;
  return `${base}#${kept ? `${kept}&` : ''}${bridge}`;
}

/**
 * The bridge named by a page address's fragment (with or without its `#`); undefined when it names none.
 * Only `ws://` addresses count: a link cannot point the page at an arbitrary scheme.
 */
export function readBridgeLink(fragment: string): BridgeAddress | undefined {
  const params = fragmentParameters(fragment.startsWith('#') ? fragment.slice(1) : fragment);
  const url = params.get('bridge');
  const token = params.get('token');
  if (!url || !token || !/^wss?:\/\/[^/\s]+\/?$/.test(url)) return undefined;
  return { url, token };
}

/** `a=1&b=2` as a map; malformed escapes are kept as written (a hand-edited link must not throw). */
function fragmentParameters(text: string): Map<string, string> {
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      return part;
    }
  };
  const params = new Map<string, string>();
  for (const pair of text.split('&')) {
    const equals = pair.indexOf('=');
    if (equals > 0) params.set(decode(pair.slice(0, equals)), decode(pair.slice(equals + 1)));
  }
  return params;
}
