// Tier colours: the Okabe–Ito palette, which people with the common kinds of colour blindness
// can tell apart; every chart also names each tier in its legend and in the table beside it.
export const TIER_COLOURS = {
  RESERVED: '#0072B2',
  ON_DEMAND: '#E69F00',
  SPOT: '#009E73',
  SERVERLESS: '#CC79A7',
  BATCH: '#56B4E9',
  DEMAND: '#1f2328',
} as const;

export const SERIES_COLOURS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#D55E00', '#56B4E9', '#1f2328', '#F0E442'];
export const SERIES_DASHES: number[][] = [[], [6, 3], [2, 2], [8, 3, 2, 3]];

export function tierOf(pricingModel: string): keyof typeof TIER_COLOURS {
  // A monthly server fills the plan's reserved slot (the base load), as the estimate plans it.
  if (pricingModel.startsWith('RESERVED') || pricingModel === 'MONTHLY') return 'RESERVED';
  if (pricingModel === 'ON_DEMAND' || pricingModel === 'SPOT' || pricingModel === 'SERVERLESS') return pricingModel;
  return 'ON_DEMAND';
}
