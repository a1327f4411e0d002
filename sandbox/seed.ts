/**
 * Deterministic sample content: playbook ideas built from small vocabularies so that a seed of
 * 25 or 10,000 reads like real investment ideas and is identical on every run.
 */
import type { Visibility } from './schemas';
import type { PlaybookStatus } from './storeRows';

interface Theme {
  name: string;
  tickers: string[];
  thesis: string;
  catalyst: string;
}

const THEMES: Theme[] = [
  {
    name: 'Grid modernization',
    tickers: ['NEE', 'ETN', 'PWR', 'AEP'],
    thesis: 'Transmission backlogs and data-centre load growth keep utility capex rising for a decade',
    catalyst: 'rate-case approvals for new transmission lines',
  },
  {
    name: 'AI inference silicon',
    tickers: ['NVDA', 'AMD', 'AVGO', 'MRVL'],
    thesis: 'Inference spend overtakes training spend as deployed models scale to every product',
    catalyst: 'hyperscaler capex guidance in the next earnings cycle',
  },
  {
    name: 'GLP-1 second-order effects',
    tickers: ['LLY', 'NVO', 'WMT', 'ISRG'],
    thesis: 'Weight-loss drugs shift grocery baskets and elective-surgery demand in measurable ways',
    catalyst: 'payer coverage decisions and supply capacity additions',
  },
  {
    name: 'Reshoring industrials',
    tickers: ['CAT', 'URI', 'NUE', 'VMC'],
    thesis: 'Factory construction incentives sustain demand for equipment rental, steel and aggregates',
    catalyst: 'monthly construction-spending data',
  },
  {
    name: 'Payments network moat',
    tickers: ['V', 'MA', 'ADYEN', 'FI'],
    thesis: 'Cross-border travel recovery and tap-to-pay adoption lift volumes faster than GDP',
    catalyst: 'cross-border volume disclosures',
  },
  {
    name: 'Water scarcity infrastructure',
    tickers: ['XYL', 'AWK', 'WTS', 'ECL'],
    thesis: 'Ageing pipes and stricter contaminant rules force multi-year municipal spending',
    catalyst: 'federal infrastructure grant disbursements',
  },
  {
    name: 'Cybersecurity consolidation',
    tickers: ['CRWD', 'PANW', 'ZS', 'FTNT'],
    thesis: 'Security buyers consolidate onto platforms, rewarding vendors with broad suites',
    catalyst: 'net-retention trends in quarterly reports',
  },
  {
    name: 'Uranium supply gap',
    tickers: ['CCJ', 'UEC', 'NXE', 'BWXT'],
    thesis: 'Reactor life extensions meet a decade of under-investment in new mine supply',
    catalyst: 'long-term contracting volumes from utilities',
  },
  {
    name: 'Dividend growth at a fair price',
    tickers: ['JNJ', 'PG', 'PEP', 'TXN'],
    thesis: 'Companies raising dividends for 25 years outperform when rates stop falling',
    catalyst: 'dividend announcements and payout-ratio changes',
  },
  {
    name: 'Small-cap value rebound',
    tickers: ['IWN', 'AVUV', 'SLYV', 'VBR'],
    thesis: 'Small-cap value trades at a historic discount that narrows when credit spreads tighten',
    catalyst: 'high-yield spread moves and regional-bank lending surveys',
  },
  {
    name: 'Travel demand normalisation',
    tickers: ['BKNG', 'MAR', 'DAL', 'ABNB'],
    thesis: 'Experience spending stays resilient even as goods spending softens',
    catalyst: 'TSA throughput and hotel RevPAR data',
  },
  {
    name: 'Semiconductor equipment cycle',
    tickers: ['ASML', 'AMAT', 'LRCX', 'KLAC'],
    thesis: 'Leading-edge and advanced-packaging capacity additions extend the equipment upcycle',
    catalyst: 'foundry capex revisions',
  },
];

const STYLES = [
  { label: 'momentum screen', rule: 'hold names above their 200-day average, rebalance monthly' },
  { label: 'quality screen', rule: 'keep names with return on invested capital above 15%' },
  { label: 'valuation band', rule: 'add below the five-year median forward P/E, trim above it' },
  { label: 'earnings-revision tilt', rule: 'overweight names with rising consensus estimates' },
  { label: 'equal-weight basket', rule: 'equal-weight the basket and rebalance quarterly' },
  { label: 'drawdown guard', rule: 'cut exposure by half after a 15% drawdown from the high' },
];

const HORIZONS = ['6-month', '12-month', '3-year', '5-year'];
/** The order sample ideas take visibilities in (more private and public than unlisted). */
const SEED_VISIBILITIES: Visibility[] = ['private', 'public', 'unlisted', 'private', 'public'];
/** A cycle of another length than the visibilities', so public, private and unlisted ideas each come in several states. */
const SEED_STATUSES: PlaybookStatus[] = ['active', 'draft', 'paused', 'active'];

/** The n-th sample idea's status: a list of ideas at work, not only drafts. */
export function samplePlaybookStatus(n: number): PlaybookStatus {
  return SEED_STATUSES[n % SEED_STATUSES.length];
}

export interface SeedPlaybook {
  title: string;
  thesis: string;
  tickers: string[];
  visibility: Visibility;
  source?: { url: string; title: string; excerpt: string };
}

/** The n-th sample idea; the same n always gives the same idea. */
export function samplePlaybook(n: number): SeedPlaybook {
  const theme = THEMES[n % THEMES.length];
  const style = STYLES[Math.floor(n / THEMES.length) % STYLES.length];
  const horizon = HORIZONS[Math.floor(n / (THEMES.length * STYLES.length)) % HORIZONS.length];
  const round = Math.floor(n / (THEMES.length * STYLES.length * HORIZONS.length));
  const suffix = round > 0 ? ` (variant ${round + 1})` : '';
  const tickerCount = 2 + (n % 3);
  const tickers = theme.tickers.slice(0, tickerCount);
  const seeded: SeedPlaybook = {
    title: `${theme.name}: ${horizon} ${style.label}${suffix}`,
    thesis: `${theme.thesis}. Rule: ${style.rule}. Watch ${theme.catalyst}; revisit the thesis if the catalyst fails to appear within the ${horizon} horizon.`,
    tickers,
    visibility: SEED_VISIBILITIES[n % SEED_VISIBILITIES.length],
  };
  if (n % 4 === 0) {
    seeded.source = {
      url: `https://finance.example.com/research/${theme.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
      title: `${theme.name} outlook`,
      excerpt: theme.thesis,
    };
  }
  return seeded;
}

/** The second user's playbooks: a mix of private and public ones for visibility tests. */
export function otherUserPlaybooks(): SeedPlaybook[] {
  return [
    {
      title: 'Private: pre-earnings options hedge on megacaps',
      thesis: 'Protect a concentrated megacap position with collars ahead of earnings; not for sharing.',
      tickers: ['AAPL', 'MSFT'],
      visibility: 'private',
    },
    {
      title: 'Private: tax-loss harvesting pairs',
      thesis: 'Swap losers into close substitutes before year end to bank losses while keeping exposure.',
      tickers: ['XLE', 'VDE'],
      visibility: 'private',
    },
    {
      title: 'Private: concentrated biotech catalyst list',
      thesis: 'Binary FDA readouts sized small, with a hard stop after two misses.',
      tickers: ['VRTX', 'REGN'],
      visibility: 'private',
    },
    {
      title: 'Insurance float compounders',
      thesis: 'Disciplined underwriters invest float at higher yields now that short rates are positive.',
      tickers: ['BRK.B', 'MKL', 'PGR'],
      visibility: 'public',
    },
    {
      title: 'Railroads on volume recovery',
      thesis: 'Intermodal volumes bottom as inventories normalise; operating ratios improve with volume.',
      tickers: ['UNP', 'CSX', 'CNI'],
      visibility: 'public',
    },
    {
      title: 'Unlisted: European defence spending',
      thesis: 'NATO members move toward 2% of GDP, lifting multi-year order books.',
      tickers: ['RHM.DE', 'BA.L', 'SAAB-B.ST'],
      visibility: 'unlisted',
    },
  ];
}

export const CATEGORIES = [
  {
    slug: 'automated-investment-strategy-backtesting',
    name: 'Automated investment strategy backtesting',
    summary:
      'Turn a written thesis or a screener rule into a playbook, backtest it over a chosen window against a benchmark, and read the result before any money moves.',
  },
  {
    slug: 'thesis-to-playbook',
    name: 'Thesis to playbook',
    summary:
      'Paste a narrative or an article excerpt; the agent drafts tickers, rules and risks as a private draft playbook.',
  },
  {
    slug: 'screeners-and-rules',
    name: 'Screeners and rules',
    summary:
      'Momentum, quality, valuation and drawdown rules expressed as plain-language playbooks you can edit.',
  },
  {
    slug: 'live-automation',
    name: 'Live automation',
    summary:
      'Once a brokerage is linked, an active playbook can rebalance on schedule; every activation is confirmed by you.',
  },
];
