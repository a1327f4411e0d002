/** The plans the pricing page, the site and the MCP overview quote. */
import { PLANS } from './schemas';

export const PLAN_ROWS = [
  {
    name: 'Starter',
    id: PLANS[0],
    price: '$0',
    playbooks: '5 playbooks',
    backtests: '10 backtests / month',
    rate: '60 requests / minute',
    live: 'No live automation',
  },
  {
    name: 'Pro',
    id: PLANS[1],
    price: '$29',
    playbooks: 'Unlimited playbooks',
    backtests: '500 backtests / month',
    rate: '120 requests / minute',
    live: 'Live automation on 1 linked brokerage',
  },
  {
    name: 'Team',
    id: PLANS[2],
    price: '$99',
    playbooks: 'Unlimited, shared workspace',
    backtests: '5,000 backtests / month',
    rate: '600 requests / minute',
    live: 'Live automation on 5 linked brokerages',
  },
];
