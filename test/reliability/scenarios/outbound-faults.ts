// Child-process scenario (run by outbound-faults.test.ts): every client method against every fault
// of the misbehaving server. Prints one JSON report on stdout and then simply returns — if any
// socket, timer or pending promise were left behind, the process would not exit and the parent
// would report a leak.
import { PaymentsClient } from '../../../src/client.js';
import type { RequestLogEvent, ResponseLogEvent } from '../../../src/http.js';
import { faults as faultNames } from '../helpers/misbehaving-server.js';
import { render } from '../helpers/secrets.js';

const [baseUrl = '', timeoutArg = '800'] = process.argv.slice(2);
const timeout = Number(timeoutArg);

const unhandled: string[] = [];
process.on('unhandledRejection', (reason) => unhandled.push(String(reason)));
process.on('uncaughtException', (error) => unhandled.push(`uncaught: ${String(error)}`));

const year = new Date().getUTCFullYear() + 2;
const customer = { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' };
const amount = { delivery_fee: 100, discount_fee: 50, total: 1500, currency: 'KES' };
const inputs = {
  initiateCardPayment: {
    customer_details: customer,
    amount,
    card_details: { card_number: '4242424242424242', expiry_month: 12, expiry_year: year, cvc: '947' },
    callback_details: { transaction_reference: 'order-1', callback_url: 'https://shop.example/cb' },
  },
  initiateMobileMoneyPayment: {
    customer_details: customer,
    amount,
    callback_details: { transaction_reference: 'order-2', callback_url: 'https://shop.example/cb' },
  },
  createCheckoutSession: {
    customer_details: customer,
    amount: { ...amount, order_id: 3 },
    redirect_urls: {
      success_url: 'https://shop.example/ok',
      failed_url: 'https://shop.example/failed',
      callback_url: 'https://shop.example/cb',
    },
  },
  initiatePayout: {
    customer_details: customer,
    destination: {
      type: 'mobile',
      country_code: 'KE',
      mobile_number: '0712345678',
      wallet_name: 'MOBILE-MONEY',
    },
    transfer: { amount: 100, currency: 'KES', reference_id: 123456789012, description: 'refund' },
    webhook_endpoint: { webhook_url: 'https://shop.example/payouts' },
  },
} as const;
type Method = keyof typeof inputs;
const methods = Object.keys(inputs) as Method[];

const allFaults: readonly string[] = faultNames;
// FAULTS=a,b narrows the run (for finding which fault leaks a handle)
const faults = process.env.FAULTS ? process.env.FAULTS.split(',') : allFaults;

export interface CallReport {
  fault: string;
  aborted?: boolean;
  method: Method;
  callId: string;
  retry: boolean;
  ok: boolean;
  errorName?: string;
  status?: number;
  issues?: number;
  issueCodes?: string[];
  retryAfter?: string;
  elapsedMs: number;
  rendered: string;
}

const logs: string[] = [];
const hooks = {
  beforeRequest: (event: RequestLogEvent) => void logs.push(JSON.stringify(event)),
  afterResponse: (event: ResponseLogEvent) => void logs.push(JSON.stringify(event)),
};

let counter = 0;
async function call(
  client: PaymentsClient,
  fault: string,
  method: Method,
  retry: boolean,
  signal?: AbortSignal,
): Promise<CallReport> {
  const callId = `${fault}:${method}:${retry ? 'retry' : signal ? 'abort' : 'plain'}:${counter++}`;
  const started = performance.now();
  try {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    await (client[method] as (input: any, options?: any) => Promise<unknown>)(inputs[method], {
      headers: { 'x-call-id': callId },
      signal,
    });
    return { fault, method, callId, retry, ok: true, elapsedMs: performance.now() - started, rendered: '' };
  } catch (error) {
    const e = error as {
      name?: string;
      status?: number;
      issues?: { code: string }[];
      headers?: Record<string, string>;
      aborted?: boolean;
    };
    return {
      fault,
      method,
      callId,
      retry,
      ok: false,
      errorName: e.name,
      status: e.status,
      issues: e.issues?.length,
      issueCodes: e.issues?.map((i) => i.code),
      retryAfter: e.headers?.['retry-after'],
      aborted: e.aborted,
      elapsedMs: performance.now() - started,
      rendered: render(error),
    };
  }
}

const clientFor = (fault: string, retry: boolean) =>
  new PaymentsClient({
    baseUrl: `${baseUrl}/${fault}`,
    timeout,
    hooks,
    ...(retry ? { retry: { limit: 2, backoffLimit: 50, maxRetryAfter: 1_500 } } : {}),
  });

const reports: CallReport[] = [];
// Every fault × every method, all at once: faults must not interfere with each other.
reports.push(
  ...(await Promise.all(
    faults.flatMap((fault) => methods.map((m) => call(clientFor(fault, false), fault, m, false))),
  )),
);
// Opt-in retries: only then is a POST repeated.
reports.push(
  ...(await Promise.all(
    ['json-503', 'rate-limited', 'reset', 'slow-headers', 'slow-body']
      .filter((fault) => faults.includes(fault))
      .map((fault) => call(clientFor(fault, true), fault, 'initiateMobileMoneyPayment', true)),
  )),
);

// The caller's own AbortSignal ends a call whose response never comes.
if (faults.includes('slow-headers')) {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 100);
  reports.push(
    await call(clientFor('slow-headers', false), 'slow-headers', 'initiatePayout', false, controller.signal),
  );
}

process.stdout.write(JSON.stringify({ reports, unhandled, logs }));
if (process.env.DEBUG_HANDLES) {
  setTimeout(() => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const handles = (process as any)
      ._getActiveHandles()
      .map((h: { constructor: { name: string } }) => h.constructor.name);
    process.stderr.write(`\nactive handles after 3 s: ${handles.join(', ')}\n`);
  }, 3_000).unref();
}
// no process.exit(): the process must end by itself
