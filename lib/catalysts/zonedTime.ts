/**
 * Local dates and times in an IANA time zone without a library. Intl gives the zone's offset at an
 * instant; since a zone changes its offset at most once a day, a UTC day whose first and last
 * millisecond share an offset has that offset throughout, and it is cached. So a check of 200
 * catalysts asks Intl about a few dozen days, not 600 instants. The browser's own zone needs no
 * Intl at all (Date's offsets). No browser API beyond Intl and Date.
 */

const DAY_MS = 86_400_000;
/** Cached days per zone; beyond this the cache starts over (a worker runs for days, not years). */
const MAX_CACHED_DAYS = 2000;

export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

export interface WallClock extends LocalDate {
  /** Minutes since local midnight. */
  minutes: number;
}

/** The offset from UTC at an instant, in ms (positive east of Greenwich). */
type OffsetAt = (ms: number) => number;

/** A zone's offsets straight from Intl: building the formatter costs ~15 ms once, each read ~7 µs. */
function intlOffsets(timeZone: string): OffsetAt {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  return (ms) => {
    const parts: Record<string, number> = {};
    for (const part of format.formatToParts(ms))
      if (part.type !== 'literal') parts[part.type] = Number(part.value);
    const wall = Date.UTC(
      parts.year,
      parts.month - 1,
      parts.day,
      parts.hour % 24,
      parts.minute,
      parts.second,
    );
    return wall - (ms - (((ms % 1000) + 1000) % 1000));
  };
}

export class Zone {
  /** UTC day number → the offset all day, or null on a day the offset changes. */
  private readonly days = new Map<number, number | null>();

  constructor(private readonly exactOffset: OffsetAt) {}

  offsetAt(ms: number): number {
    const day = Math.floor(ms / DAY_MS);
    let offset = this.days.get(day);
    if (offset === undefined) {
      if (this.days.size >= MAX_CACHED_DAYS) this.days.clear();
      const first = this.exactOffset(day * DAY_MS);
      offset = first === this.exactOffset(day * DAY_MS + DAY_MS - 1) ? first : null;
      this.days.set(day, offset);
    }
    return offset ?? this.exactOffset(ms);
  }

  /** The wall clock at instant `ms`. */
  wallClock(ms: number): WallClock {
    const local = new Date(ms + this.offsetAt(ms));
    return {
      year: local.getUTCFullYear(),
      month: local.getUTCMonth() + 1,
      day: local.getUTCDate(),
      minutes: local.getUTCHours() * 60 + local.getUTCMinutes(),
    };
  }

  /**
   * The instant of `date` + `addDays` at `minutes` after local midnight, by correcting a UTC guess
   * twice (enough across a DST change; a wall time a change skips maps to just after the gap).
   */
  instant(date: LocalDate, minutes: number, addDays = 0): number {
    const guess = Date.UTC(date.year, date.month - 1, date.day + addDays, 0, minutes);
    const first = guess - this.offsetAt(guess);
    return guess - this.offsetAt(first);
  }
}

/** The browser's own zone, from Date's offsets: no Intl formatter to build (tens of ms when cold). */
export const systemZone = new Zone((ms) => -new Date(ms).getTimezoneOffset() * 60_000);
const utcZone = new Zone(() => 0);
const zones = new Map<string, Zone>([['UTC', utcZone]]);

/**
 * The zone by IANA name, cached for the life of the worker; no name is the browser's own zone,
 * and a name Intl does not know reads as UTC.
 */
export function zoneFor(timeZone?: string): Zone {
  if (timeZone === undefined) return systemZone;
  let zone = zones.get(timeZone);
  if (!zone) {
    if (zones.size > 16) zones.clear(); // names come from settings: a handful in a worker's life
    try {
      zone = new Zone(intlOffsets(timeZone));
    } catch {
      zone = utcZone;
    }
    zones.set(timeZone, zone);
  }
  return zone;
}

/** A full-date (YYYY-MM-DD) as its parts. */
export function dateParts(fullDate: string): LocalDate {
  return {
    year: Number(fullDate.slice(0, 4)),
    month: Number(fullDate.slice(5, 7)),
    day: Number(fullDate.slice(8, 10)),
  };
}
