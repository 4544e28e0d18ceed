// Carbon in the compliance answers (docs/carbon.md): maxGridIntensity as a region rule, the
// cleanest compliant offer named beside the cheapest with its premium, the listing in carbon order.
// Expected figures by hand in the comments.
import { Decimal } from '../money/money.js';
import type { EnergyFigure } from '../catalog/catalog.types.js';
import { findCheapestCompliant } from './cheapest.js';
import { filterOffers } from './filter-offers.js';
import { resolvePolicy } from './policy.js';
import { resolveRequirement } from './requirement.js';
import { makeCatalog, makeOffer, makeProvider, makeRegion } from './testing/factories.js';
import { defined } from '../checked.js';

const fig = (kind: EnergyFigure['kind'], subject: string, value: string): EnergyFigure => ({
  kind,
  subject,
  value: new Decimal(value),
  year: 2024,
  source: 'https://example.org/',
  note: null,
});
// Three EU regions of one provider: Sweden 23, Germany 341, Poland 581 g CO2e/kWh; PUE 1.135; H100 700 W.
const catalog = makeCatalog({
  providers: [makeProvider({ slug: 'aws' })],
  regions: [
    makeRegion({ code: 'aws:eu-north-1', country: 'SE' }),
    makeRegion({ code: 'aws:eu-central-1', country: 'DE' }),
    makeRegion({ code: 'aws:eu-central-2', country: 'PL' }),
    makeRegion({ code: 'aws:us-east-1', country: 'US' }),
  ],
  offers: [
    makeOffer({ regionCode: 'aws:eu-central-2', pricePerHour: new Decimal('3.00') }),
    makeOffer({ regionCode: 'aws:eu-central-1', pricePerHour: new Decimal('3.50') }),
    makeOffer({ regionCode: 'aws:eu-north-1', pricePerHour: new Decimal('4.00') }),
    makeOffer({ regionCode: 'aws:us-east-1', pricePerHour: new Decimal('2.00') }),
  ],
  energy: [
    fig('GRID_INTENSITY', 'SE', '23'),
    fig('GRID_INTENSITY', 'DE', '341'),
    fig('GRID_INTENSITY', 'PL', '581'),
    fig('PUE', 'aws', '1.135'),
    fig('GPU_POWER', 'h100-sxm-80gb', '700'),
    fig('IDLE_POWER_SHARE', 'default', '0.113'),
  ],
});
const requirement = resolveRequirement({ gpus: ['h100-sxm-80gb'] });
const eu = (extra: Parameters<typeof resolvePolicy>[0] = {}) => resolvePolicy({ residency: 'EU', ...extra });
const regionsOf = (items: readonly { offer: { regionCode: string } }[]) => items.map((i) => i.offer.regionCode);

describe('carbon in the compliance answers', () => {
  it('the cheapest EU offer is in Poland; the cleanest is in Sweden, 1.00 (33.33%) dearer per GPU-hour, saving 443.331 g per GPU-hour', () => {
    const r = findCheapestCompliant({ catalog, requirement, policy: eu(), currency: 'USD' });
    expect(regionsOf(r.items)).toEqual(['aws:eu-central-2', 'aws:eu-central-1', 'aws:eu-north-1']);
    const c = defined(r.cleanest, 'cleanest');
    expect(c.offer.offer.regionCode).toBe('aws:eu-north-1');
    expect(c.isCheapest).toBe(false);
    // 4.00 − 3.00 = 1.00; 1.00 / 3.00 = 33.33...%
    expect(c.premiumPerGpuHour.toString()).toBe('1');
    expect(c.premiumPercent?.toDecimalPlaces(2).toString()).toBe('33.33');
    // 0.7945 kWh × (581 − 23) g/kWh = 443.331 g
    expect(c.carbonSavedPerGpuHour).toBeCloseTo(443.331, 6);
    // each item carries its own figures: Poland 0.7945 × 581 = 461.6045 g
    expect(r.items[0]?.energy?.gCo2ePerGpuHour).toBeCloseTo(461.6045, 6);
  });

  it('maxGridIntensity excludes dirtier grids, and regions without a figure, with the reason', () => {
    const r = findCheapestCompliant({ catalog, requirement, policy: resolvePolicy({ maxGridIntensity: 341 }), currency: 'USD', explain: true });
    // 341 is allowed (at most), 581 is not; US has no figure in this catalog, so it cannot comply.
    expect(regionsOf(r.items)).toEqual(['aws:eu-central-1', 'aws:eu-north-1']);
    expect(r.excluded.map((e) => [e.offer.regionCode, e.reasons.map((x) => x.rule)])).toEqual([
      ['aws:us-east-1', ['GRID_INTENSITY']],
      ['aws:eu-central-2', ['GRID_INTENSITY']],
    ]);
    expect(defined(r.excluded[1], 'PL').reasons[0]?.message).toContain('581 g CO2e/kWh, above the maximum 341');
  });

  it('the cleanest is the cheapest when the cheapest is also the cleanest; the premium is then 0', () => {
    const r = findCheapestCompliant({ catalog, requirement, policy: eu({ maxGridIntensity: 100 }), currency: 'USD' });
    expect(r.cleanest?.isCheapest).toBe(true);
    expect(r.cleanest?.premiumPerGpuHour.isZero()).toBe(true);
  });

  it('lists offers by carbon, then price, and pages through that order', () => {
    const first = filterOffers({ catalog, requirement, policy: eu(), currency: 'USD', limit: 2, sort: 'CARBON' });
    expect(regionsOf(first.items)).toEqual(['aws:eu-north-1', 'aws:eu-central-1']);
    const second = filterOffers({ catalog, requirement, policy: eu(), currency: 'USD', limit: 2, sort: 'CARBON', after: first.nextAfter });
    expect(regionsOf(second.items)).toEqual(['aws:eu-central-2']);
    expect(second.nextAfter).toBeNull();
    // Offers without a figure come last.
    const all = filterOffers({ catalog, requirement, currency: 'USD', limit: 10, sort: 'CARBON' });
    expect(regionsOf(all.items).at(-1)).toBe('aws:us-east-1');
  });

  it('refuses a maxGridIntensity that is negative or not finite, naming the field', () => {
    expect(() => resolvePolicy({ maxGridIntensity: -1 })).toThrow(/maxGridIntensity must be a number/);
    expect(() => resolvePolicy({ maxGridIntensity: Number.NaN })).toThrow(/maxGridIntensity/);
  });
});
