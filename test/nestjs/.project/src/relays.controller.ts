// Three ways of relaying the Fetch handler's Response through Nest that look right and are not,
// kept so that test/nestjs/nestjs.test.ts can show what each makes of the SDK's answers (the
// warnings in docs/webhooks.md, "NestJS"). Do not copy: use webhooks.controller.ts.
import { Controller, HttpCode, HttpException, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { createCallbackHandler, type CallbackHandler } from 'hosted-payments/callbacks';
import { OrdersService } from './orders.service';

/** The Fetch Request a Nest route would build from Express's parsed request. */
const toFetchRequest = (req: Request): globalThis.Request =>
  new Request(`http://${req.get('host')}${req.originalUrl}`, {
    method: req.method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(req.body),
  });

@Controller('relays')
export class RelaysController {
  private readonly handler: CallbackHandler;

  constructor(orders: OrdersService) {
    this.handler = createCallbackHandler({
      secret: process.env.WEBHOOK_SECRET,
      publicOrigin: process.env.PUBLIC_ORIGIN,
      onEvent: async (event, { reference, dedupeKey }) => {
        if (event.paid) await orders.markPaid(reference, event.amount, dedupeKey);
        else await orders.markFailed(reference, event.message);
      },
    });
  }

  // Nest serialises the returned Response object (no own enumerable fields: {}) with POST's
  // default status, 201, whatever the handler decided.
  @Post('returned')
  returned(@Req() req: Request): Promise<globalThis.Response> {
    return this.handler(toFetchRequest(req));
  }

  // HttpException keeps the status and body but not the headers (Retry-After, x-callback-duplicate).
  @Post('exception')
  @HttpCode(200)
  async exception(@Req() req: Request): Promise<void> {
    const response = await this.handler(toFetchRequest(req));
    if (!response.ok) throw new HttpException((await response.json()) as object, response.status);
  }

  // The 200 has no body, so response.json() throws on every accepted delivery: Nest answers 500.
  @Post('json')
  async json(@Req() req: Request, @Res() res: Response): Promise<void> {
    const response = await this.handler(toFetchRequest(req));
    res.status(response.status).json(await response.json());
  }
}
