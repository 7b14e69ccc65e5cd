// The hosted checkout page in a real headless Chromium (Debian's `chromium`, driven by
// playwright-core): open the link, pay, land on success_url / failed_url, see the callback.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import { parseCallback } from '../../src/callbacks/parse.js';
import { startSandbox, sandboxTestValues, type Sandbox } from '../../src/sandbox/index.js';
import { customer, futureYear, startMerchantSite, type MerchantSite } from '../sandbox/helpers.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOT = new URL('../../docs/checkout.png', import.meta.url);

let browser: Browser;
let site: MerchantSite;
let sandbox: Sandbox;
let page: Page;
let pageProblems: string[];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}. The browser tests need Debian's chromium: ` +
        '`apt-get install -y chromium` (.ci/run installs it), or set CHROMIUM_PATH.',
    );
  }
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  site = await startMerchantSite();
  sandbox = await startSandbox({ callbackDelayMs: 0, retryDelayMs: 10, log: false });
  page = await browser.newPage({ viewport: { width: 720, height: 860 } });
  pageProblems = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') pageProblems.push(message.text());
  });
  page.on('pageerror', (error) => pageProblems.push(error.message));
});

afterEach(async () => {
  await page?.close();
  await sandbox?.close();
  await site?.close();
  expect(pageProblems).toEqual([]);
});

async function openCheckout(orderId: number): Promise<string> {
  const client = new PaymentsClient({ baseUrl: sandbox.url });
  const session = await client.createCheckoutSession({
    customer_details: customer,
    amount: { delivery_fee: 200, discount_fee: 50, total: 2500, currency: 'KES', order_id: orderId },
    redirect_urls: {
      success_url: `${site.url}/success`,
      failed_url: `${site.url}/failed`,
      callback_url: `${site.url}/hooks/checkout`,
    },
  });
  await page.goto(session.checkout_link);
  return session.checkout_link;
}

async function fillCard(cardNumber: string) {
  await page.getByLabel('Card number').fill(cardNumber);
  await page.getByLabel('Expiry month').fill('12');
  await page.getByLabel('Expiry year').fill(String(futureYear));
  await page.getByLabel('CVC').fill('123');
}

describe('the hosted checkout page in Chromium', () => {
  it('is an accessible page showing the order total; paying by card lands on success_url and posts the callback', async () => {
    await openCheckout(1001);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    await expect.poll(() => page.title()).toContain('KES 2,500.00');
    expect(await page.getByRole('main').count()).toBe(1);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Checkout');
    expect(await page.locator('#order-total').textContent()).toBe('KES 2,500.00');
    expect(await page.getByRole('group', { name: 'Payment method' }).isVisible()).toBe(true);
    expect(await page.getByRole('radio', { name: 'Card' }).isChecked()).toBe(true);
    expect(await page.getByLabel('Phone number').isVisible()).toBe(false); // the card method hides it
    expect(await page.getByRole('alert').count()).toBe(1);

    await fillCard(sandboxTestValues.cards.success);
    await page.getByLabel('CVC').blur();
    const png = await page.screenshot({ fullPage: true });
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    if (!existsSync(SCREENSHOT) || process.env.UPDATE_SCREENSHOTS === '1') await writeFile(SCREENSHOT, png);

    await page.getByRole('button', { name: /^Pay KES 2,500\.00$/ }).click();
    await page.waitForURL(`${site.url}/success`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Thank you for your order');
    const [callback] = await site.waitForCallbacks(1);
    const event = parseCallback(callback!.body);
    expect(event).toMatchObject({ type: 'checkout.succeeded', reference: '1001', amount: '2500' });
    expect(callback!.body).toMatchObject({ paid: 'False', payment_status: 'Payment complete.' });
  });

  it('paying by mobile-money shows the phone field and lands on success_url', async () => {
    await openCheckout(1002);
    await page.getByRole('radio', { name: 'MOBILE-MONEY' }).check();
    expect(await page.getByLabel('Card number').isVisible()).toBe(false);
    await page.getByLabel('Phone number').fill('0712 345 678');
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForURL(`${site.url}/success`);
    const [callback] = await site.waitForCallbacks(1);
    expect(callback!.body).toMatchObject({
      payment_method: 'MOBILE-MONEY',
      message: 'MOBILE-MONEY Payment Successful',
    });
  });

  it('a declined card lands on failed_url and posts the failure callback', async () => {
    await openCheckout(1003);
    await fillCard(sandboxTestValues.cards.declined);
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForURL(`${site.url}/failed`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Payment failed');
    const [callback] = await site.waitForCallbacks(1);
    expect(parseCallback(callback!.body)).toMatchObject({
      type: 'checkout.failed',
      reference: '1003',
      paid: false,
    });
    expect(callback!.body).toMatchObject({
      message: 'Insufficient funds',
      payment_status: 'Payment Incomplete.',
    });
  });

  it('"Simulate a failed payment" lands on failed_url', async () => {
    await openCheckout(1004);
    await page.getByRole('button', { name: 'Simulate a failed payment' }).click();
    await page.waitForURL(`${site.url}/failed`);
    const [callback] = await site.waitForCallbacks(1);
    expect(parseCallback(callback!.body).type).toBe('checkout.failed');
  });

  it('shows field errors in the live region and marks the fields invalid, sending nothing', async () => {
    const link = await openCheckout(1005);
    await fillCard('4242 4242 4242 4241');
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForLoadState();
    expect(page.url()).toBe(link);
    expect(await page.getByRole('alert').textContent()).toContain('Luhn');
    expect(await page.getByLabel('Card number').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Card number').inputValue()).toBe(''); // never echoed back
    expect(await page.content()).not.toContain('4242424242424241');
    expect(site.attempts).toHaveLength(0);
    // The re-rendered form answers 422, which Chromium reports on its console; that one is expected.
    pageProblems = pageProblems.filter((problem) => !problem.includes('status of 422'));
  });
});

describe('sandbox.completeCheckout', () => {
  it('submits the same form post as the browser: same action, encoding, method and fields', async () => {
    // The browser pays the first order; record its form post.
    let browserPost: { url: string; contentType?: string; fields: URLSearchParams } | undefined;
    page.on('request', (request) => {
      if (request.method() === 'POST') {
        browserPost = {
          url: request.url(),
          contentType: request.headers()['content-type'],
          fields: new URLSearchParams(request.postData() ?? ''),
        };
      }
    });
    const browserLink = await openCheckout(2001);
    await fillCard(sandboxTestValues.cards.success);
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForURL(`${site.url}/success`);

    // completeCheckout pays the second; record what it sends.
    const client = new PaymentsClient({ baseUrl: sandbox.url });
    const session = await client.createCheckoutSession({
      customer_details: customer,
      amount: { delivery_fee: 100, discount_fee: 50, total: 2500, currency: 'KES', order_id: 2002 },
      redirect_urls: {
        success_url: `${site.url}/success`,
        failed_url: `${site.url}/failed`,
        callback_url: `${site.url}/hooks/checkout`,
      },
    });
    const realFetch = globalThis.fetch;
    const posts: { url: string; init?: RequestInit }[] = [];
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      // (the sandbox's own callback delivery goes through fetch too)
      if (init?.method === 'POST' && String(input).includes('/checkout/'))
        posts.push({ url: String(input), init });
      return realFetch(input, init);
    });
    try {
      const done = await sandbox.completeCheckout(session.checkout_link, { method: 'card' });
      expect(done).toEqual({ paid: true, redirectedTo: `${site.url}/success` });
    } finally {
      spy.mockRestore();
    }

    expect(browserPost).toBeDefined();
    expect(posts).toHaveLength(1);
    const scripted = posts[0]!;
    expect(new URL(browserPost!.url).pathname).toBe(new URL(browserLink).pathname);
    expect(new URL(scripted.url).pathname).toBe(new URL(session.checkout_link).pathname);
    expect(browserPost!.contentType).toBe('application/x-www-form-urlencoded');
    expect(scripted.init?.body).toBeInstanceOf(URLSearchParams); // fetch sends it urlencoded
    const fields = scripted.init!.body as URLSearchParams;
    for (const [name, value] of fields) {
      expect(browserPost!.fields.has(name), name).toBe(true);
      if (name === 'method' || name === 'action' || name === 'card_number') {
        expect(value, name).toBe(browserPost!.fields.get(name));
      }
    }
    const callbacks = await site.waitForCallbacks(2);
    expect(callbacks.map((callback) => parseCallback(callback.body).type)).toEqual([
      'checkout.succeeded',
      'checkout.succeeded',
    ]);
  });
});
