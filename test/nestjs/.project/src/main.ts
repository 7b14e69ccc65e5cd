import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';

// Nest's JSON and urlencoded body parsers in front of every route, with `rawBody: true`: they keep
// the posted bytes as req.rawBody, which the webhook route reads (the parsed req.body no longer
// holds the numbers and keys as sent). RAW_BODY=0 leaves it out, as a shop that forgot it.
async function bootstrap(): Promise<void> {
  const app = await NestFactory.create(AppModule, {
    rawBody: process.env.RAW_BODY !== '0',
    logger: ['warn', 'error'],
  });
  await app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
  console.log(`listening on ${await app.getUrl()}`);
}

bootstrap().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
