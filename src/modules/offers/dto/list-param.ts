// Moved to src/common/inputs/query-string.ts; kept until the offer queries read from there.
export { CommaList, QueryBoolean, QueryNumber } from '../../../common/inputs/query-string.js';
