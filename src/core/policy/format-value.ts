/**
 * Formats console arguments the way a browser console prints them on one line, without any platform
 * inspector (core runs in workers and Node alike): strings bare at the top level, everything else as
 * compact JS-like literals, with cycles, depth and length bounded so a huge state cannot flood the log.
 */

const MAX_DEPTH = 4;
const MAX_ITEMS = 50;
const MAX_LENGTH = 2_000;

/** Formats a list of console arguments as one line of text. */
export function formatConsoleArguments(args: readonly unknown[]): string {
  const text = args.map((arg) => (typeof arg === 'string' ? arg : formatValue(arg))).join(' ');
  return text.length > MAX_LENGTH ? `${text.slice(0, MAX_LENGTH)}… (${text.length} characters)` : text;
}

/** Formats one value as a compact literal. */
export function formatValue(value: unknown, depth = 0, seen: Set<object> = new Set()): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Object.is(value, -0) ? '-0' : String(value);
    case 'bigint':
      return `${value}n`;
    case 'boolean':
    case 'undefined':
      return String(value);
    case 'symbol':
      return value.toString();
    case 'function':
      return `[Function ${value.name || 'anonymous'}]`;
  }
  if (value === null) return 'null';
  const object = value as object;
  if (object instanceof Error) return `${object.name}: ${object.message}`;
  if (seen.has(object)) return '[Circular]';
  if (depth >= MAX_DEPTH) return Array.isArray(object) ? '[Array]' : '[Object]';
  seen.add(object);
  try {
    if (Array.isArray(object)) return formatList('[', ']', object, depth, seen);
    if (object instanceof Map) {
      const entries = [...object].map(
        ([k, v]) => `${formatValue(k, depth + 1, seen)} => ${formatValue(v, depth + 1, seen)}`,
      );
      return `Map(${object.size}) ${joinItems('{', '}', entries)}`;
    }
    if (object instanceof Set) return `Set(${object.size}) ${formatList('{', '}', [...object], depth, seen)}`;
    const entries = Object.entries(object).map(
      ([key, v]) =>
        `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}: ${formatValue(v, depth + 1, seen)}`,
    );
    return joinItems('{', '}', entries);
  } finally {
    seen.delete(object);
  }
}

function formatList(
  open: string,
  close: string,
  items: readonly unknown[],
  depth: number,
  seen: Set<object>,
): string {
  return joinItems(
    open,
    close,
    items.slice(0, MAX_ITEMS).map((item) => formatValue(item, depth + 1, seen)),
    items.length,
  );
}

function joinItems(open: string, close: string, parts: string[], total = parts.length): string {
  const shown = parts.slice(0, MAX_ITEMS);
  if (total > shown.length) shown.push(`… ${total - shown.length} more`);
  return shown.length ? `${open} ${shown.join(', ')} ${close}` : `${open}${close}`;
}
