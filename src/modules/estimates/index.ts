// The inference cost estimate (REST and GraphQL), for the app module.
export { EstimatesModule } from './estimates.module.js';
