import { Module } from '@nestjs/common';
import { OrdersService } from './orders.service';
import { RelaysController } from './relays.controller';
import { WebhooksController } from './webhooks.controller';

@Module({ controllers: [WebhooksController, RelaysController], providers: [OrdersService] })
export class AppModule {}
