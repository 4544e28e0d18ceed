// Offer listing and the cheapest compliant offer (REST and GraphQL), for the app module.
export { OffersModule } from './offers.module.js';
