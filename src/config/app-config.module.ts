import { Global, Module, type DynamicModule } from '@nestjs/common';
import { APP_CONFIG, TRACK_CURRENT_VERSION, type AppConfig } from './app-config.js';

/**
 * Makes the validated configuration injectable everywhere as APP_CONFIG, and says whether this
 * process serves requests (the API: track and preload the current catalog version) or runs an
 * admin script (ask the database when needed).
 */
@Global()
@Module({})
export class AppConfigModule {
  static forRoot(config: AppConfig, options: { serving: boolean }): DynamicModule {
    return {
      module: AppConfigModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: TRACK_CURRENT_VERSION, useValue: options.serving },
      ],
      exports: [APP_CONFIG, TRACK_CURRENT_VERSION],
    };
  }
}
