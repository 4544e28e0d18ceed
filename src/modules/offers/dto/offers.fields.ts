// Fields of the offer queries that are neither requirement nor policy: paging of the listing and
// the cheapest answer's options. REST and GraphQL name some differently (limit/first,
// cursor/after) but read them with these definitions.
import { PAGING_BOUNDS } from '../../../common/inputs/input-bounds.js';
import { field } from '../../../common/inputs/input-field.js';

export const PAGING = {
  pageSize: field.int({ ...PAGING_BOUNDS.pageSize, description: 'Offers per page' }),
  cursor: field.string({ ...PAGING_BOUNDS.cursor, description: 'nextCursor of the previous page' }),
};

export const CHEAPEST = {
  limit: field.int({ ...PAGING_BOUNDS.cheapestLimit, description: 'How many compliant offers to return, cheapest first' }),
  explain: field.boolean({ default: false, description: 'Also list the cheaper offers the policy excluded, with every reason' }),
};
