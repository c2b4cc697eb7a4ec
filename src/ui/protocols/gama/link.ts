/** GAMA's settings in the share link: short parameters beside the shell's own. */
import type { GamaSessionOptions } from '../../../core/protocols/gama/playground/options';

/** The link's parameters for the settings (short, beside the shell's own). */
const LINK = {
  cycles: 'gc',
  observation: 'go',
  sendTerminal: 'gt',
  faithfulQuirks: 'gq',
  batch: 'gb',
} as const satisfies Record<keyof GamaSessionOptions, string>;

/** The settings a link carries, or undefined when it carries none. */
export function gamaOptionsFromLink(fragment: string): Partial<GamaSessionOptions> | undefined {
  const params = new URLSearchParams(fragment.replace(/^#/, ''));
  const given: Record<string, unknown> = {};
  for (const [key, name] of Object.entries(LINK)) {
    const value = params.get(name);
    if (value === null) continue;
    given[key] = key === 'cycles' || key === 'observation' ? value : value === '1';
  }
  return Object.keys(given).length ? given : undefined;
}

/** The settings as link parameters. */
export function gamaLinkFragment(options: GamaSessionOptions): string {
  const params = new URLSearchParams();
  params.set(LINK.cycles, String(options.cycles));
  params.set(LINK.observation, options.observation);
  for (const key of ['sendTerminal', 'faithfulQuirks', 'batch'] as const)
    params.set(LINK[key], options[key] ? '1' : '0');
  return params.toString();
}
