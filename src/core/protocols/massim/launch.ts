/**
 * The real server's `launch` setting: when the tournament starts once the server is up. The host itself
 * starts when told to (`MassimHost.start`); whoever runs it reads the setting with these helpers.
 */
import { ProtoplayError } from '../../errors';

/** When to start: on ENTER (`"key"`), after a delay (`"<n>s"`), or at a time of day (`"HH:mm"`). */
export type MassimLaunch =
  { kind: 'key' } | { kind: 'delay'; ms: number } | { kind: 'time-of-day'; hours: number; minutes: number };

/** Reads a `launch` value; throws a `ProtoplayError` (`massim.launch`) for anything else. */
export function parseMassimLaunch(launch: string): MassimLaunch {
  if (launch === 'key') return { kind: 'key' };
  const delay = /^(\d+)s$/.exec(launch);
  if (delay) return { kind: 'delay', ms: Number(delay[1]) * 1000 };
  const clock = /^(\d{1,2}):(\d{2})$/.exec(launch);
  if (clock && Number(clock[1]) < 24 && Number(clock[2]) < 60)
    return { kind: 'time-of-day', hours: Number(clock[1]), minutes: Number(clock[2]) };
  throw new ProtoplayError(
    'massim.launch',
    `Unknown launch "${launch}": expected "key", a delay like "5s", or a time of day like "14:30".`,
  );
}

/**
 * Milliseconds to wait before starting, for a launch that is not `key`. A time of day already past today
 * means now, as on the real server. `now` is a local date.
 */
export function msUntilLaunch(launch: Exclude<MassimLaunch, { kind: 'key' }>, now: Date): number {
  if (launch.kind === 'delay') return launch.ms;
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate(), launch.hours, launch.minutes);
  return Math.max(0, start.getTime() - now.getTime());
}
