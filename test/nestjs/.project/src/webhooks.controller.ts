// src/webhooks.controller.ts
import { Controller, Logger, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { createCallbackHandler, toNodeListener, type NodeCallbackListener } from 'hosted-payments/callbacks';
import { OrdersService } from './orders.service';

@Controller('webhooks')
export class WebhooksController {
  private readonly logger = new Logger(WebhooksController.name);
  private readonly listener: NodeCallbackListener;

  constructor(orders: OrdersService) {
    this.listener = toNodeListener(
      createCallbackHandler({
        secret: process.env.WEBHOOK_SECRET,
        publicOrigin: process.env.PUBLIC_ORIGIN, // e.g. https://shop.example
        onEvent: async (event, { reference, dedupeKey }) => {
          if (event.paid) await orders.markPaid(reference, event.amount, dedupeKey);
          else await orders.markFailed(reference, event.message);
        },
        onError: (error, { status, reason }) =>
          this.logger.warn(`webhook refused: ${status} ${reason}: ${error.message}`),
      }),
    );
  }

  // @Res() hands the response to the SDK: it writes the status, headers and body itself, and Nest
  // adds nothing. Returning a Response instead would answer 201 {} to every delivery, refusals
  // and failures included, and the sender would never retry.
  @Post('payments')
  payments(@Req() req: Request, @Res() res: Response): void {
    this.listener(req, res);
  }
}
