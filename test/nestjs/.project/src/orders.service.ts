import { Injectable } from '@nestjs/common';

/**
 * The shop's orders. Here a stand-in that prints what it is asked to do (the test reads it), with
 * two references that behave like a real database on a bad day: ORDER-DB-DOWN throws, and
 * ORDER-SLOW takes 1.5 s.
 */
@Injectable()
export class OrdersService {
  async markPaid(reference: string, amount: string, dedupeKey: string): Promise<void> {
    await this.database(reference);
    console.log(`order paid: ${reference} ${amount} ${dedupeKey}`);
  }

  async markFailed(reference: string, message: string): Promise<void> {
    await this.database(reference);
    console.log(`order failed: ${reference} ${message}`);
  }

  private async database(reference: string): Promise<void> {
    if (reference === 'ORDER-DB-DOWN') throw new Error('the database is down');
    if (reference === 'ORDER-SLOW') await new Promise((resolve) => setTimeout(resolve, 1500));
  }
}
