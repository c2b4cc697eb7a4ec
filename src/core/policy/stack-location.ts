/**
 * Finds where in the user's code an error was thrown, from the error's stack trace. The compiled policy is
 * evaluated with a `//# sourceURL=` name, which V8, SpiderMonkey and JavaScriptCore all print in their
 * frames (`at act (NAME:5:11)`, `act@NAME:5:11`), so the first frame naming it is the user's innermost.
 */
import type { Position } from './source-map';

/** The position of the first stack frame in the script named `scriptName`, or undefined. */
export function findScriptFrame(stack: string | undefined, scriptName: string): Position | undefined {
  if (!stack) return undefined;
  const escaped = scriptName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`${escaped}:(\\d+):(\\d+)`).exec(stack);
  if (!match) return undefined;
  return { line: Number(match[1]), column: Number(match[2]) };
}
