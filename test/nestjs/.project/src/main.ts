import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';

// Nest's defaults: its JSON and urlencoded body parsers in front of every route. RAW_BODY=1 adds
// Nest's `rawBody: true`, which the webhook route does not need.
async function bootstrap(): Promise<void> {
  const app = await NestFactory.create(AppModule, {
    rawBody: process.env.RAW_BODY === '1',
    logger: ['warn', 'error'],
  });
  await app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
  console.log(`listening on ${await app.getUrl()}`);
}

bootstrap().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
