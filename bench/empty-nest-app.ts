// Baseline for npm run bench: an empty NestJS application on Fastify with one route answering the
// same constant JSON as the bare Node server. The service's own floor (/health/live) is measured
// against it: what Nest and Fastify cost is not the service's to save.
import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';

@Controller()
class ConstantController {
  @Get()
  answer(): unknown {
    return { status: 'ok', items: [{ provider: 'nest', amount: '1.0000' }] };
  }
}

@Module({ controllers: [ConstantController] })
class EmptyModule {}

const port = Number(process.argv[2]);
const app = await NestFactory.create<NestFastifyApplication>(EmptyModule, new FastifyAdapter(), { logger: false });
await app.listen(port, '127.0.0.1');
console.log(`ready nest-fastify ${port}`);
