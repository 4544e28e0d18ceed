// Every live price source catalog:sync knows, by name.
import type { PriceSource } from '../price-source.js';
import { awsSpotSource } from './aws-spot.js';
import { awsSource } from './aws.js';
import { azureSource } from './azure.js';
import { ecbSource } from './ecb.js';
import { gcpSource } from './gcp.js';
import { scalewaySource } from './scaleway.js';
import { lambdaSource, nebiusSource } from './skypilot.js';

export const PRICE_SOURCES: readonly PriceSource[] = [awsSource, awsSpotSource, azureSource, ecbSource, gcpSource, lambdaSource, nebiusSource, scalewaySource];
