import { Module } from '@nestjs/common';
import { ApiKeyRepository } from './api-key.repository.js';
import { ApiKeysService } from './api-keys.service.js';

@Module({ providers: [ApiKeyRepository, ApiKeysService], exports: [ApiKeysService] })
export class AuthModule {}
