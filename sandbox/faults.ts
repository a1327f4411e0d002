/**
 * Fault injection for tests: all off by default, set from the command line or the admin route.
 * Counters count API requests (under /api/) only; admin traffic never triggers a fault.
 */
import { z } from 'zod';

export const faultConfigSchema = z
  .object({
    latencyMs: z.number().int().min(0).max(60_000),
    rateLimitBurst: z.number().int().min(0),
    retryAfterMode: z.enum(['seconds', 'http-date', 'reset-only']),
    retryAfterSeconds: z.number().int().min(0).max(3600),
    serverErrorOnNth: z.number().int().min(0),
    serverErrorEvery: z.number().int().min(0),
    serverErrorAfterCommit: z.number().int().min(0),
    writeHoldMs: z.number().int().min(0).max(60_000),
    malformedJson: z.number().int().min(0),
    wrongContentType: z.number().int().min(0),
    oversizedResponse: z.number().int().min(0),
    repeatingCursor: z.boolean(),
    endlessHasMore: z.boolean(),
    tamperedSkillDigest: z.boolean(),
    legacySunsetPast: z.boolean(),
    legacySunsetAt: z.string().nullable(),
    deprecateListPlaybooks: z.boolean(),
    resetConnection: z.number().int().min(0),
    timeoutMs: z.number().int().min(0).max(600_000),
    timeoutRequests: z.number().int().min(0),
  })
  .strict();

export type FaultConfig = z.infer<typeof faultConfigSchema>;

export const DEFAULT_FAULTS: FaultConfig = {
  latencyMs: 0,
  rateLimitBurst: 0,
  retryAfterMode: 'seconds',
  retryAfterSeconds: 1,
  serverErrorOnNth: 0,
  serverErrorEvery: 0,
  serverErrorAfterCommit: 0,
  writeHoldMs: 0,
  malformedJson: 0,
  wrongContentType: 0,
  oversizedResponse: 0,
  repeatingCursor: false,
  endlessHasMore: false,
  tamperedSkillDigest: false,
  legacySunsetPast: true,
  legacySunsetAt: null,
  deprecateListPlaybooks: false,
  resetConnection: 0,
  timeoutMs: 0,
  timeoutRequests: 0,
};

/** One line per fault for --help and the README: flag, field, meaning. */
export const FAULT_FLAGS: {
  flag: string;
  field: keyof FaultConfig;
  kind: 'int' | 'bool' | 'string';
  help: string;
}[] = [
  {
    flag: '--fault-latency-ms',
    field: 'latencyMs',
    kind: 'int',
    help: 'add this many ms before every API answer',
  },
  {
    flag: '--fault-429-burst',
    field: 'rateLimitBurst',
    kind: 'int',
    help: 'the next N API requests get 429',
  },
  {
    flag: '--fault-retry-after-mode',
    field: 'retryAfterMode',
    kind: 'string',
    help: "429 hint: 'seconds' | 'http-date' | 'reset-only' (RateLimit-Reset only)",
  },
  {
    flag: '--fault-retry-after-seconds',
    field: 'retryAfterSeconds',
    kind: 'int',
    help: 'wait advertised by injected 429s (default 1)',
  },
  {
    flag: '--fault-5xx-on-nth',
    field: 'serverErrorOnNth',
    kind: 'int',
    help: 'the Nth API request from now gets 503',
  },
  {
    flag: '--fault-5xx-every',
    field: 'serverErrorEvery',
    kind: 'int',
    help: 'flapping: every Nth API request gets 503',
  },
  {
    flag: '--fault-5xx-after-commit',
    field: 'serverErrorAfterCommit',
    kind: 'int',
    help: 'the next N writes commit, then answer 500',
  },
  {
    flag: '--fault-write-hold-ms',
    field: 'writeHoldMs',
    kind: 'int',
    help: 'writes hold their Idempotency-Key in flight this long (409 window)',
  },
  {
    flag: '--fault-malformed-json',
    field: 'malformedJson',
    kind: 'int',
    help: 'the next N JSON answers are truncated',
  },
  {
    flag: '--fault-wrong-content-type',
    field: 'wrongContentType',
    kind: 'int',
    help: 'the next N JSON answers claim text/html',
  },
  {
    flag: '--fault-oversized-response',
    field: 'oversizedResponse',
    kind: 'int',
    help: 'the next N list answers are padded past 5 MB',
  },
  {
    flag: '--fault-repeating-cursor',
    field: 'repeatingCursor',
    kind: 'bool',
    help: 'list pages always return the same next_cursor',
  },
  {
    flag: '--fault-endless-has-more',
    field: 'endlessHasMore',
    kind: 'bool',
    help: 'lists always say has_more with a fresh cursor',
  },
  {
    flag: '--fault-tampered-skill-digest',
    field: 'tamperedSkillDigest',
    kind: 'bool',
    help: 'the skills index advertises a wrong digest for one skill',
  },
  {
    flag: '--fault-legacy-sunset-future',
    field: 'legacySunsetPast',
    kind: 'bool',
    help: 'put the sunset of listPlaybooksLegacy in the future (default: past)',
  },
  {
    flag: '--fault-legacy-sunset-at',
    field: 'legacySunsetAt',
    kind: 'string',
    help: 'explicit RFC 3339 sunset for the deprecated operations',
  },
  {
    flag: '--fault-deprecate-list-playbooks',
    field: 'deprecateListPlaybooks',
    kind: 'bool',
    help: 'also mark listPlaybooks deprecated (replaced by graphql)',
  },
  {
    flag: '--fault-reset-connection',
    field: 'resetConnection',
    kind: 'int',
    help: 'the next N API requests have their socket destroyed',
  },
  {
    flag: '--fault-timeout-ms',
    field: 'timeoutMs',
    kind: 'int',
    help: 'hang this long before answering (with --fault-timeout-count, default 1)',
  },
  {
    flag: '--fault-timeout-count',
    field: 'timeoutRequests',
    kind: 'int',
    help: 'how many API requests hang',
  },
];

const PAST_SUNSET = '2025-06-30';

/** The live fault state: configuration plus the counters it drives. */
export class FaultState {
  config: FaultConfig = { ...DEFAULT_FAULTS };
  private sinceNth = 0;
  private sinceEvery = 0;

  constructor(initial: Partial<FaultConfig> = {}) {
    this.set(initial);
  }

  set(partial: Partial<FaultConfig>): void {
    const next = { ...this.config, ...partial };
    // A hang with no count means "the next request".
    if (
      partial.timeoutMs &&
      partial.timeoutMs > 0 &&
      partial.timeoutRequests === undefined &&
      next.timeoutRequests === 0
    )
      next.timeoutRequests = 1;
    this.config = faultConfigSchema.parse(next);
    if (partial.serverErrorOnNth !== undefined) this.sinceNth = 0;
    if (partial.serverErrorEvery !== undefined) this.sinceEvery = 0;
  }

  reset(): void {
    this.config = { ...DEFAULT_FAULTS };
    this.sinceNth = 0;
    this.sinceEvery = 0;
  }

  /** Decrements a counter fault and says whether it fired. */
  take(
    field:
      | 'rateLimitBurst'
      | 'serverErrorAfterCommit'
      | 'malformedJson'
      | 'wrongContentType'
      | 'oversizedResponse'
      | 'resetConnection'
      | 'timeoutRequests',
  ): boolean {
    if (this.config[field] <= 0) return false;
    this.config[field] -= 1;
    return true;
  }

  /** Counts one API request towards the 5xx-on-Nth and flapping faults. */
  serverErrorNow(): boolean {
    let fire = false;
    if (this.config.serverErrorOnNth > 0) {
      this.sinceNth += 1;
      if (this.sinceNth >= this.config.serverErrorOnNth) {
        fire = true;
        this.config.serverErrorOnNth = 0;
        this.sinceNth = 0;
      }
    }
    if (this.config.serverErrorEvery > 0) {
      this.sinceEvery += 1;
      if (this.sinceEvery % this.config.serverErrorEvery === 0) fire = true;
    }
    return fire;
  }

  /** The sunset of deprecated operations: configured, else past by default, else 180 days ahead. */
  sunset(): Date {
    if (this.config.legacySunsetAt)
      return new Date(
        this.config.legacySunsetAt.length === 10
          ? `${this.config.legacySunsetAt}T00:00:00Z`
          : this.config.legacySunsetAt,
      );
    if (this.config.legacySunsetPast) return new Date(`${PAST_SUNSET}T00:00:00Z`);
    const ahead = new Date(Date.now() + 180 * 86_400_000);
    return new Date(`${ahead.toISOString().slice(0, 10)}T00:00:00Z`);
  }
}
