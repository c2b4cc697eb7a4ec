/**
 * Text output exactly as rddlsim's Java code writes it: xerces' XMLSerializer (declaration, `\n`, the root
 * on one line, empty elements self-closed) through an `OutputStreamWriter(..., "US-ASCII")`.
 */

/** The declaration every rddlsim message starts with (38 characters), followed by one `\n`. */
export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

/** Declaration plus its newline: the 39 characters the server cuts off in `<no-header/>` mode. */
export const XML_HEADER = `${XML_DECLARATION}\n`;

const NEEDS_ESCAPE = /[^\t\n\x20-\x25\x27-\x3b\x3d\x3f-\x7f]/;

/**
 * Escapes element text the way XMLSerializer does and then encodes it the way a US-ASCII writer does:
 * `&`, `<` and `>` become entities, carriage return and other control characters become hexadecimal
 * character references (`&#xd;`), and every character outside ASCII becomes one `?` (a surrogate pair
 * too, since Java's encoder replaces a whole code point).
 */
export function escapeXmlText(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (char === '&') out += '&amp;';
    else if (char === '<') out += '&lt;';
    else if (char === '>') out += '&gt;';
    else if (code === 0x09 || code === 0x0a || (code >= 0x20 && code <= 0x7f)) out += char;
    else if (code < 0x20) out += `&#x${code.toString(16)};`;
    else out += '?';
  }
  return out;
}

/** `<name>escaped text</name>`, or `<name></name>` for empty text (an element with an empty text child). */
export function textElement(name: string, text: string): string {
  return `<${name}>${escapeXmlText(text)}</${name}>`;
}
