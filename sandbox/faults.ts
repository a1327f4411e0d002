/**
 * Fault injection for tests: all off by default, set from the command line or the admin route.
 * Counters count API requests (under /api/) only; admin traffic never triggers a fault.
 */
import { z } from 'zod';

/** Ways /openapi.json can lie about the writes (see sandbox/README.md). */
export const OPENAPI_TAMPERS = [
  'pause-replaced-by-activate',
  'pause-activate-swapped',
  'duplicate-operation',
  'writes-as-get',
  'read-replaced-by-post',
] as const;
export type OpenApiTamper = (typeof OPENAPI_TAMPERS)[number];

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
    resetNonGetOnly: z.boolean(),
    timeoutMs: z.number().int().min(0).max(600_000),
    timeoutRequests: z.number().int().min(0),
    openapiTamper: z.array(z.enum(OPENAPI_TAMPERS)).max(OPENAPI_TAMPERS.length),
    serversUrl: z.string().min(1).max(2048).nullable(),
    llmsHeadingChars: z.number().int().min(0).max(100_000),
    hostileMarkdown: z.boolean(),
    endlessSkillFrontMatter: z.boolean(),
    hostileCards: z.boolean(),
    hostileHeaders: z.boolean(),
    echoKeyInProblem: z.number().int().min(0),
    echoKeyPadding: z.number().int().min(0).max(100_000).nullable(),
    sseNoNewlineBytes: z
      .number()
      .int()
      .min(0)
      .max(256 * 1024 * 1024),
    sseGiantEvent: z.boolean(),
    hostileEventText: z.boolean(),
    accountLinkUrl: z.enum(['sandbox', 'http-remote', 'javascript']),
    foreignAccountUrls: z.boolean(),
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
  resetNonGetOnly: false,
  timeoutMs: 0,
  timeoutRequests: 0,
  openapiTamper: [],
  serversUrl: null,
  llmsHeadingChars: 0,
  hostileMarkdown: false,
  endlessSkillFrontMatter: false,
  hostileCards: false,
  hostileHeaders: false,
  echoKeyInProblem: 0,
  echoKeyPadding: null,
  sseNoNewlineBytes: 0,
  sseGiantEvent: false,
  hostileEventText: false,
  accountLinkUrl: 'sandbox',
  foreignAccountUrls: false,
};

/** One line per fault for --help and the README: flag, field, meaning. */
export const FAULT_FLAGS: {
  flag: string;
  field: keyof FaultConfig;
  kind: 'int' | 'bool' | 'string' | 'list';
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
    flag: '--fault-reset-non-get-only',
    field: 'resetNonGetOnly',
    kind: 'bool',
    help: 'the reset counter counts only requests other than GET and HEAD (writes, POST reads)',
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
  {
    flag: '--fault-openapi-tamper',
    field: 'openapiTamper',
    kind: 'list',
    help: `comma-separated lies in /openapi.json: ${OPENAPI_TAMPERS.join(', ')}`,
  },
  {
    flag: '--fault-servers-url',
    field: 'serversUrl',
    kind: 'string',
    help: 'servers[0].url of /openapi.json (e.g. plain http to a remote host)',
  },
  {
    flag: '--fault-llms-heading-chars',
    field: 'llmsHeadingChars',
    kind: 'int',
    help: '/llms.txt opens with a heading line this long (1,500-100,000)',
  },
  {
    flag: '--fault-hostile-markdown',
    field: 'hostileMarkdown',
    kind: 'bool',
    help: 'Markdown documents gain nested blockquotes and [-floods (about 1 MB)',
  },
  {
    flag: '--fault-endless-skill-front-matter',
    field: 'endlessSkillFrontMatter',
    kind: 'bool',
    help: "one SKILL.md's front matter never ends (its digest still matches)",
  },
  {
    flag: '--fault-hostile-cards',
    field: 'hostileCards',
    kind: 'bool',
    help: 'agent card and MCP card carry huge and pathological strings',
  },
  {
    flag: '--fault-hostile-headers',
    field: 'hostileHeaders',
    kind: 'bool',
    help: 'API answers carry long Link, RateLimit*, Deprecation, Sunset, Retry-After',
  },
  {
    flag: '--fault-echo-key-in-problem',
    field: 'echoKeyInProblem',
    kind: 'int',
    help: "the next N authenticated API requests get a 403 whose detail echoes the caller's key",
  },
  {
    flag: '--fault-echo-key-padding',
    field: 'echoKeyPadding',
    kind: 'int',
    help: 'characters before the echoed key (default: the key repeated at every offset)',
  },
  {
    flag: '--fault-sse-no-newline-bytes',
    field: 'sseNoNewlineBytes',
    kind: 'int',
    help: 'the event stream writes this many bytes without a newline, then ends',
  },
  {
    flag: '--fault-sse-giant-event',
    field: 'sseGiantEvent',
    kind: 'bool',
    help: 'the event stream opens with events of 1 MB ids, types and data',
  },
  {
    flag: '--fault-hostile-event-text',
    field: 'hostileEventText',
    kind: 'bool',
    help: 'event data (stream and polling) carries hostile strings for notifications',
  },
  {
    flag: '--fault-account-link-url',
    field: 'accountLinkUrl',
    kind: 'string',
    help: "checkout_url/link_url: 'sandbox' | 'http-remote' | 'javascript'",
  },
  {
    flag: '--fault-foreign-account-urls',
    field: 'foreignAccountUrls',
    kind: 'bool',
    help: 'other writes answer with a checkout_url and link_url too',
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
      | 'timeoutRequests'
      | 'echoKeyInProblem',
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
