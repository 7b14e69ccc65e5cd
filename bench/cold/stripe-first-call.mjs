// Cold start + first call of the peer: import stripe, build a client and retrieve the balance
// from the same kind of loopback server (one fixed JSON reply).
import { startLoopback } from './loopback.mjs';

const service = await startLoopback();
const { default: Stripe } = await import('stripe');

const stripe = new Stripe('sk_test_0123456789', { host: '127.0.0.1', port: service.port, protocol: 'http' });
await stripe.balance.retrieve();
service.close();
