// Fields of the offer queries that are neither requirement nor policy: paging of the listing and
// the cheapest answer's options. REST and GraphQL name some differently (limit/first,
// cursor/after) but read them with these definitions.
import { PAGING_BOUNDS } from '../../../common/inputs/input-bounds.js';
import { field } from '../../../common/inputs/input-field.js';
import { registerEnumType } from '@nestjs/graphql';
import { OFFER_SORTS, type OfferSort } from '../../../domain/compliance/index.js';

export const OfferSortEnum = Object.fromEntries(OFFER_SORTS.map((v) => [v, v])) as Record<OfferSort, OfferSort>;
registerEnumType(OfferSortEnum, {
  name: 'OfferSort',
  description: 'PRICE: cheapest first; CARBON: least g CO2e per GPU-hour first, then cheapest (docs/carbon.md)',
});

export const PAGING = {
  sort: field.enum<OfferSort>(OFFER_SORTS, OfferSortEnum, {
    default: 'PRICE',
    description: 'Order of the listing: PRICE (cheapest first) or CARBON (least g CO2e per GPU-hour first)',
  }),
  pageSize: field.int({ ...PAGING_BOUNDS.pageSize, description: 'Offers per page' }),
  cursor: field.string({ ...PAGING_BOUNDS.cursor, description: 'nextCursor of the previous page' }),
};

export const CHEAPEST = {
  limit: field.int({ ...PAGING_BOUNDS.cheapestLimit, description: 'How many compliant offers to return, cheapest first' }),
  explain: field.boolean({ default: false, description: 'Also list the cheaper offers the policy excluded, with every reason' }),
};
