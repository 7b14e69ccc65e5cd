// Endpoint 3: a hosted redirect checkout. Run: npx tsx examples/checkout-session.ts
// Prints the checkout link: open it to pay on the sandbox's checkout page. With PAY=1 the
// example submits that page itself (as the customer's browser would) and waits for the callback.
import { PaymentsClient } from 'hosted-payments';
import { signCallbackUrl } from 'hosted-payments/callbacks';
import { exampleEnvironment } from './support/environment.js';

const env = await exampleEnvironment();
const client = new PaymentsClient({ baseUrl: env.baseUrl });

const orderId = Math.floor(Date.now() / 1000) % 1_000_000_000;
// order_id is what the checkout callback carries back: sign the URL for it.
const callback_url = await signCallbackUrl(env.webhookUrl, {
  secret: env.secret,
  reference: String(orderId),
});

try {
  const session = await client.createCheckoutSession({
    customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
    amount: { order_id: orderId, delivery_fee: 0, discount_fee: 0, total: 4200, currency: 'KES' },
    redirect_urls: {
      success_url: 'https://shop.example/orders/thank-you',
      failed_url: 'https://shop.example/orders/payment-failed',
      callback_url,
    },
  });
  console.log(`checkout link for order ${session.order_id}: ${session.checkout_link}`);

  if (process.env.PAY === '1') {
    // What the customer does on the hosted page: pick mobile money and pay.
    const page = await fetch(session.checkout_link);
    const form = new URLSearchParams({ method: 'mobile_money', phone_number: '0712345678', action: 'pay' });
    const action = /<form[^>]*action="([^"]+)"/.exec(await page.text())?.[1] ?? session.checkout_link;
    await fetch(new URL(action.replaceAll('&amp;', '&'), session.checkout_link), {
      method: 'POST',
      body: form,
      redirect: 'manual',
    });
    const event = await env.nextEvent();
    console.log(`callback: ${event.type} order=${event.reference} paid=${event.paid}`);
  }
} finally {
  await env.close();
}
