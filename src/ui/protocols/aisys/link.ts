/**
 * aisys settings in the share link: short parameters beside the shell's own. The agent config never
 * travels in a link (it holds a password).
 */
import type { AisysPlaygroundOptions } from '../../../core/protocols/aisys/playground/options';

type LinkedSetting = 'parallelRuns' | 'abandonOldRuns' | 'faithfulBugs';

const LINK = { parallelRuns: 'ap', abandonOldRuns: 'aa', faithfulBugs: 'ab' } as const satisfies Record<
  LinkedSetting,
  string
>;

/** The settings a link carries, or undefined when it carries none. */
export function aisysOptionsFromLink(fragment: string): Partial<AisysPlaygroundOptions> | undefined {
  const params = new URLSearchParams(fragment.replace(/^#/, ''));
  const given: Partial<AisysPlaygroundOptions> = {};
  for (const [key, name] of Object.entries(LINK) as [LinkedSetting, string][]) {
    const value = params.get(name);
    if (value !== null) given[key] = value === '1';
  }
  return Object.keys(given).length ? given : undefined;
}

/** The settings as link parameters. */
export function aisysLinkFragment(options: AisysPlaygroundOptions): string {
  const params = new URLSearchParams();
  for (const [key, name] of Object.entries(LINK) as [LinkedSetting, string][])
    params.set(name, options[key] ? '1' : '0');
  return params.toString();
}
