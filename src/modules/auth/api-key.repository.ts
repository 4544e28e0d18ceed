import { Injectable } from '@nestjs/common';
import { PrismaService } from '../../database/prisma.service.js';

export interface ApiKeyRecord {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
}

const select = { id: true, name: true, prefix: true, createdAt: true, revokedAt: true } as const;

@Injectable()
export class ApiKeyRepository {
  constructor(private readonly prisma: PrismaService) {}

  create(input: { id: string; name: string; prefix: string; keyHash: string }): Promise<ApiKeyRecord> {
    return this.prisma.apiKey.create({ data: input, select });
  }

  findAll(): Promise<ApiKeyRecord[]> {
    return this.prisma.apiKey.findMany({ select, orderBy: { createdAt: 'asc' } });
  }

  findActiveByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    return this.prisma.apiKey.findFirst({ where: { keyHash, revokedAt: null }, select });
  }

  /** Revokes by id or prefix; returns the keys it revoked. */
  async revoke(ref: string): Promise<ApiKeyRecord[]> {
    const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(ref);
    const where = { revokedAt: null, ...(isUuid ? { id: ref } : { prefix: ref }) };
    const found = await this.prisma.apiKey.findMany({ where, select });
    if (found.length) await this.prisma.apiKey.updateMany({ where, data: { revokedAt: new Date() } });
    return found;
  }
}
