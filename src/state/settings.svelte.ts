/** Run settings a learner adjusts between sessions; persisted and shareable. */

/** How fast a session plays: with a pause between turns to watch it, or as fast as possible. */
export type Speed = 'animated' | 'fast';

/** The plain-data form of the settings, as stored and put in URLs. */
export interface SettingsData {
  rounds: number;
  seed: number;
  speed: Speed;
  /** Pause between turns when animated, in ms. */
  delayMs: number;
  /** Time the policy may take per turn, in ms. */
  budgetMs: number;
}

/** Defaults: a short session (5 rounds), a gentle animation, and the 1 s per-turn budget. */
export const DEFAULT_SETTINGS: Readonly<SettingsData> = {
  rounds: 5,
  seed: 1,
  speed: 'animated',
  delayMs: 120,
  budgetMs: 1000,
};

/** Clamps a number into a range, falling back when it is not a finite number. */
function clampInteger(value: unknown, min: number, max: number, fallback: number): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return fallback;
  return Math.min(max, Math.max(min, Math.round(n)));
}

/** Reads settings from untrusted data (storage, a URL), keeping defaults for anything missing or invalid. */
export function sanitizeSettings(data: Partial<Record<keyof SettingsData, unknown>>): SettingsData {
  return {
    rounds: clampInteger(data.rounds, 1, 1000, DEFAULT_SETTINGS.rounds),
    seed: clampInteger(data.seed, 0, 2 ** 31 - 1, DEFAULT_SETTINGS.seed),
    speed: data.speed === 'fast' || data.speed === 'animated' ? data.speed : DEFAULT_SETTINGS.speed,
    delayMs: clampInteger(data.delayMs, 0, 5000, DEFAULT_SETTINGS.delayMs),
    budgetMs: clampInteger(data.budgetMs, 10, 60_000, DEFAULT_SETTINGS.budgetMs),
  };
}

/** The current settings, reactive. */
export class Settings {
  rounds = $state(DEFAULT_SETTINGS.rounds);
  seed = $state(DEFAULT_SETTINGS.seed);
  speed = $state<Speed>(DEFAULT_SETTINGS.speed);
  delayMs = $state(DEFAULT_SETTINGS.delayMs);
  budgetMs = $state(DEFAULT_SETTINGS.budgetMs);

  /** The pause between turns the session should use now. */
  get effectiveDelayMs(): number {
    return this.speed === 'fast' ? 0 : this.delayMs;
  }

  toData(): SettingsData {
    return {
      rounds: this.rounds,
      seed: this.seed,
      speed: this.speed,
      delayMs: this.delayMs,
      budgetMs: this.budgetMs,
    };
  }

  apply(data: Partial<Record<keyof SettingsData, unknown>>): void {
    const clean = sanitizeSettings({ ...this.toData(), ...data });
    this.rounds = clean.rounds;
    this.seed = clean.seed;
    this.speed = clean.speed;
    this.delayMs = clean.delayMs;
    this.budgetMs = clean.budgetMs;
  }
}
