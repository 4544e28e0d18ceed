import { ApolloDriver, type ApolloDriverConfig } from '@nestjs/apollo';
import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { GraphQLModule } from '@nestjs/graphql';
import { LoggerModule } from 'nestjs-pino';
import type { Logger as PinoLogger } from 'pino';
import type { AppConfig } from './config/app-config.js';
import { AppConfigModule } from './config/app-config.module.js';
import { loggerModuleParams } from './config/logger.options.js';
import { formatGraphqlError, logInternalGraphqlErrors } from './common/errors/graphql-errors.js';
import { graphiqlLandingPage } from './common/graphiql.js';
import { armorRules, complexityPlugin, parseOptions } from './common/graphql-limits.js';
import { DateTimeScalar } from './common/inputs/date-time.js';
import { AuthModule } from './modules/auth/auth.module.js';
import { RequestGateModule } from './modules/auth/request-gate.module.js';
import { ProblemDetailsFilter } from './common/errors/problem-details.filter.js';
import { DatabaseModule } from './database/database.module.js';
import { CatalogModule } from './modules/catalog/catalog.module.js';
import { EstimatesModule } from './modules/estimates/estimates.module.js';
import { HealthModule } from './modules/health/health.module.js';
import { MetricsModule } from './modules/metrics/metrics.module.js';
import { OffersModule } from './modules/offers/offers.module.js';

export interface AppModuleOptions {
  config: AppConfig;
  /** The database the app uses: DATABASE_URL, the embedded server, or a test database. */
  databaseUrl: string;
  /** The process's logger (createRootLogger), shared by Fastify and Nest. */
  logger: PinoLogger;
}

@Module({})
export class AppModule {
  static register({ config, databaseUrl, logger }: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        AppConfigModule.forRoot(config, { serving: true }),
        LoggerModule.forRoot(loggerModuleParams(logger)),
        DatabaseModule.forRoot({
          url: databaseUrl,
          poolSize: config.DATABASE_POOL_SIZE,
          connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
          statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
          replicaUrl: config.DATABASE_REPLICA_URL,
        }),
        GraphQLModule.forRootAsync<ApolloDriverConfig>({
          driver: ApolloDriver,
          useFactory: () => {
            const limits = {
              maxDepth: config.GRAPHQL_MAX_DEPTH,
              maxComplexity: config.GRAPHQL_MAX_COMPLEXITY,
              maxTokens: config.GRAPHQL_MAX_TOKENS,
              maxAliases: config.GRAPHQL_MAX_ALIASES,
              maxDirectives: config.GRAPHQL_MAX_DIRECTIVES,
            };
            const armor = armorRules(limits);
            return {
              path: '/graphql',
              // In memory; `npm run docs:generate` writes schema.gql and a test keeps it in step.
              autoSchemaFile: true,
              sortSchema: true,
              // DateTime read as REST reads it: RFC 3339, calendar-checked (common/inputs/date-time.ts).
              buildSchemaOptions: { scalarsMap: [{ type: Date, scalar: DateTimeScalar }] },
              introspection: config.GRAPHQL_INTROSPECTION,
              // @nestjs/apollo's GraphiQL page loads its scripts from a CDN; ours is served from this
              // service (common/graphiql.ts), when GRAPHQL_PLAYGROUND is on.
              graphiql: false,
              formatError: formatGraphqlError,
              autoTransformHttpErrors: true,
              // Who may call, and how often, is decided before the body is read (the request
              // gate in modules/http/http-hooks.ts), so a refused caller costs no parsing.
              context: (req: unknown, res: unknown) => ({ req, res }),
              parseOptions: parseOptions(limits),
              validationRules: armor.validationRules,
              plugins: [
                ...armor.plugins,
                complexityPlugin(config.GRAPHQL_MAX_COMPLEXITY),
                logInternalGraphqlErrors(),
                ...(config.GRAPHQL_PLAYGROUND ? [graphiqlLandingPage()] : []),
              ],
            };
          },
        }),
        AuthModule,
        RequestGateModule,
        MetricsModule,
        HealthModule,
        CatalogModule,
        OffersModule,
        EstimatesModule,
      ],
      providers: [{ provide: APP_FILTER, useClass: ProblemDetailsFilter }],
    };
  }
}
