/** Paths in messages, written the way the user would recognise them. */
import { isAbsolute, relative } from 'node:path';

/** A path as the user would recognise it: relative to the working directory when inside it. */
export function displayPath(path: string, cwd: string): string {
  if (!isAbsolute(path)) return path;
  const inside = relative(cwd, path);
  return inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside : path;
}
