/**
 * Switching a policy's language in the editor: TypeScript to JavaScript strips the types (a learner who
 * picks JavaScript wants JavaScript, not TypeScript that no longer compiles); JavaScript is valid
 * TypeScript, so the other way keeps the code. The converter (sucrase) is loaded only when first needed.
 */
import type { PolicyLanguage } from '../core/policy/types';

/** The code to show after switching from `from` to `to` (the same code when nothing needs converting). */
export async function codeForLanguage(
  code: string,
  from: PolicyLanguage,
  to: PolicyLanguage,
): Promise<string> {
  if (from !== 'ts' || to !== 'js') return code;
  const { typeScriptToJavaScript } = await import('../core/policy/compile');
  return typeScriptToJavaScript(code) ?? code;
}
