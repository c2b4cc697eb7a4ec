/**
 * Indents an rddlsim message for reading. Elements holding only text stay on one line
 * (`<turn-num>3</turn-num>`); others put each child on its own line. Text is re-escaped, so what is shown
 * is still XML meaning the same thing; the raw view shows the exact bytes.
 */
import { parseXml, type XmlElement, type XmlNode } from './xml';

const INDENT = '  ';

/** Escapes markup characters only: the display keeps every other character as it is. */
function escapeXmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attributes(element: XmlElement): string {
  return Object.entries(element.attributes)
    .map(([name, value]) => ` ${name}="${escapeXmlText(value).replace(/"/g, '&quot;')}"`)
    .join('');
}

function printNode(node: XmlNode, depth: number, lines: string[]): void {
  const pad = INDENT.repeat(depth);
  if (node.kind !== 'element') {
    if (node.kind === 'comment') lines.push(`${pad}<!--${node.value}-->`);
    else if (node.kind === 'processing-instruction') lines.push(`${pad}<?${node.value}?>`);
    else if (node.kind === 'cdata') lines.push(`${pad}<![CDATA[${node.value}]]>`);
    else if (node.value.trim()) lines.push(pad + escapeXmlText(node.value.trim()));
    return;
  }
  const open = `<${node.name}${attributes(node)}`;
  if (node.children.length === 0) {
    lines.push(`${pad}${open}/>`);
    return;
  }
  if (node.children.every((child) => child.kind === 'text')) {
    const text = node.children.map((child) => (child.kind === 'text' ? child.value : '')).join('');
    lines.push(`${pad}${open}>${escapeXmlText(text)}</${node.name}>`);
    return;
  }
  lines.push(`${pad}${open}>`);
  for (const child of node.children) printNode(child, depth + 1, lines);
  lines.push(`${pad}</${node.name}>`);
}

/** The message indented, or the text unchanged when it is not well-formed XML (e.g. rddlsim's `null`). */
export function prettyPrintRddlsim(text: string): string {
  let root: XmlElement;
  let declaration: boolean;
  try {
    ({ root, declaration } = parseXml(text));
  } catch {
    return text;
  }
  const lines: string[] = declaration ? ['<?xml version="1.0" encoding="UTF-8"?>'] : [];
  printNode(root, 0, lines);
  return lines.join('\n');
}
