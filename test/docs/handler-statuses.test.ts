// The status the docs give each answer of the webhook route is the status the route answers:
// every refusal reason is provoked here through a real handler (the Fetch route, and
// toNodeListener for what only it refuses), and every row of the docs' status tables — the
// handler's table in docs/webhooks.md, the verdict's in docs/webhooks-verdict.md, the tracker's in
// docs/transactions.md, the headings of docs/troubleshooting.md — is checked against what came back.
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createCallbackHandler,
  signCallbackUrl,
  toNodeListener,
  type CallbackHandlerOptions,
} from '../../src/callbacks/index.js';
import { callbackFixtures } from '../../src/testing/index.js';
import { createTransactionTracker } from '../../src/transactions/index.js';
import { root } from './snippets.js';

const secret = 'docs-status-test-secret-0123456789';
const route = 'https://shop.example/webhooks/payments';
const payout = callbackFixtures['payout.succeeded']; // reference_id '123456789012', 1000 KES
const reference = payout.reference_id;

const post = (url: string, body: BodyInit, headers: Record<string, string> = {}) =>
  new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);

interface Answer {
  readonly status: number;
  /** The `error` of the JSON body; `undefined` for a 200 (no body). */
  readonly error: string | undefined;
}

async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  return {
    status: response.status,
    error: text === '' ? undefined : (JSON.parse(text) as { error: string }).error,
  };
}

/** Posts `body` to a URL signed for `signedFor`, through a handler made with `options`. */
async function deliver(
  body: unknown,
  options: Partial<CallbackHandlerOptions> = {},
  { signedFor = reference, headers = {} }: { signedFor?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const handler = createCallbackHandler({ secret, onEvent: () => undefined, ...options });
  const url = await signCallbackUrl(route, { secret, reference: signedFor });
  return answerOf(await handler(post(url, typeof body === 'string' ? body : JSON.stringify(body), headers)));
}

/** What `toNodeListener` answers a raw HTTP/1.1 request (its status line only). */
async function rawNodeStatus(head: string): Promise<Answer> {
  const handler = createCallbackHandler({ secret, onEvent: () => undefined });
  const server = createServer(toNodeListener(handler)).listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    socket.end(`${head}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
    let text = '';
    for await (const chunk of socket) text += String(chunk);
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
    return { status, error: /"error":"([a-z_]+)"/.exec(text)?.[1] };
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

/** A store whose `begin` always answers `state`. */
const storeAnswering = (state: string) => ({
  begin: async () => state as 'new',
  complete: async () => undefined,
  abandon: async () => undefined,
});

/** Each reason the handler answers with, provoked; `processed` is the 200 of an accepted callback. */
const provoke: Record<string, () => Promise<Answer>> = {
  processed: () => deliver(payout),
  invalid_request: () => rawNodeStatus('POST /webhooks/payments HTTP/1.1\r\nHost: not a host'),
  method_not_allowed: async () => {
    const handler = createCallbackHandler({ secret, onEvent: () => undefined });
    return answerOf(await handler(new Request(await signCallbackUrl(route, { secret, reference }))));
  },
  invalid_signature: async () => {
    const handler = createCallbackHandler({ secret, onEvent: () => undefined });
    return answerOf(await handler(post(route, JSON.stringify(payout))));
  },
  body_timeout: async () => {
    const handler = createCallbackHandler({ secret, onEvent: () => undefined, bodyTimeoutMs: 20 });
    const url = await signCallbackUrl(route, { secret, reference });
    return answerOf(await handler(post(url, new ReadableStream({ start: () => undefined }))));
  },
  payload_too_large: () => deliver(payout, { maxBodyBytes: 16 }),
  unsupported_encoding: () => deliver(payout, {}, { headers: { 'content-encoding': 'gzip' } }),
  invalid_payload: () => deliver('{'),
  contradictory_outcome: () => deliver({ ...payout, status: 'Failed' }),
  unrecognised_status: () => deliver({ ...payout, status: 'Pending' }),
  missing_status: () => deliver((({ status: _, ...rest }) => rest)(payout)),
  reference_mismatch: () => deliver(payout, {}, { signedFor: '123456789099' }),
  amount_mismatch: () => deliver(payout, { expected: () => ({ amount: '999' }) }),
  currency_mismatch: () => deliver(payout, { expected: () => ({ currency: 'USD' }) }),
  unknown_reference: () => deliver(payout, { tracker: createTransactionTracker() }),
  transaction_kind_mismatch: async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference, kind: 'card', amount: payout.amount, currency: 'KES' });
    return deliver(payout, { tracker });
  },
  conflicting_outcome: async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference, kind: 'payout', amount: payout.amount, currency: 'KES' });
    await tracker.settle(reference, { outcome: 'failed' });
    return deliver(payout, { tracker });
  },
  in_progress: () => deliver(payout, { dedupe: storeAnswering('in_progress') }),
  dedupe_store_full: () => deliver(payout, { dedupe: storeAnswering('full') }),
  handler_failed: () =>
    deliver(payout, {
      onEvent: () => {
        throw new Error('the order database is down');
      },
    }),
};

/** `CallbackParseError.reason` → a body the handler refuses for it. */
const parseReasonBodies: Record<string, unknown> = {
  invalid_json: '{',
  not_an_object: '[1]',
  unknown_callback: {},
  invalid_payload: { ...payout, currency: 'K S' },
  invalid_amount: { ...payout, amount: '1,000' },
  contradictory_outcome: { ...payout, status: 'Failed' },
  unrecognised_status: { ...payout, status: 'Pending' },
  missing_status: (({ status: _, ...rest }) => rest)(payout),
};

const answers = new Map<string, Answer>();
const parseAnswers = new Map<string, Answer>();
beforeAll(async () => {
  for (const [reason, run] of Object.entries(provoke)) answers.set(reason, await run());
  for (const [reason, body] of Object.entries(parseReasonBodies))
    parseAnswers.set(reason, await deliver(body));
});

const read = (file: string) => readFileSync(join(root, file), 'utf8');

/** The text of `file` from the heading `heading` to the next heading of any level. */
function section(file: string, heading: string): string {
  const text = read(file);
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`${file}: no heading ${heading}`);
  const rest = text.slice(start + heading.length + 2);
  return rest.slice(0, rest.search(/^#/m) >>> 0);
}

/** The rows of the Markdown tables in `text`, each as its cells (the header and rule rows left out). */
const tableRows = (text: string): string[][] =>
  text
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[-| ]+\|$/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim()),
    );

const codeWords = (cell: string): string[] => [...cell.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]!);
const statusIn = (cell: string): number | undefined => {
  const found = /^(\d{3})\b/.exec(cell);
  return found ? Number(found[1]) : undefined;
};

describe('the handler answers each reason as the docs say', () => {
  it('answers every provoked reason with its own error word', () => {
    for (const [reason, answer] of answers) {
      expect(answer.error, reason).toBe(reason === 'processed' ? undefined : reason);
    }
  });

  it('docs/webhooks.md "What the handler answers": every reason, at its status', () => {
    const rows = tableRows(section('docs/webhooks.md', '## What the handler answers'));
    const documented = new Map<string, number>();
    for (const [reasons, status] of rows.slice(1)) {
      const words = codeWords(reasons!);
      for (const reason of words.length > 0 ? words : ['processed']) documented.set(reason, Number(status));
    }
    const observed = new Map([...answers].map(([reason, answer]) => [reason, answer.status]));
    expect(Object.fromEntries(documented)).toEqual(Object.fromEntries(observed));
  });

  it('docs/webhooks-verdict.md "What the handler does with it": each parse reason, at its status and word', () => {
    const rows = tableRows(section('docs/webhooks-verdict.md', '## 5. What the handler does with it'));
    const documented: Record<string, Answer> = {};
    for (const [reasons, status, body] of rows.slice(1)) {
      const word = /"error": "([a-z_]+)"/.exec(body!)?.[1];
      for (const reason of codeWords(reasons!)) {
        documented[reason] = { status: Number(status), error: word === undefined ? reason : word };
      }
    }
    expect(documented).toEqual(Object.fromEntries(parseAnswers));
  });

  it('docs/transactions.md "With the callback handler": the tracker refusals, at their status', () => {
    const rows = tableRows(section('docs/transactions.md', '## With the callback handler'));
    const checked: string[] = [];
    for (const [, answer, reasons] of rows.slice(1)) {
      const status = statusIn(answer!);
      const words = codeWords(reasons!).filter((word) => answers.has(word));
      for (const reason of words.length > 0 ? words : ['processed']) {
        expect(status, reason).toBe(answers.get(reason)!.status);
        checked.push(reason);
      }
    }
    expect(checked).toEqual(expect.arrayContaining(['unknown_reference', 'conflicting_outcome']));
  });

  it('docs/troubleshooting.md: each "<status> <reason>" it names', () => {
    const named = [...read('docs/troubleshooting.md').matchAll(/"(\d{3}) ([a-z_]+)"/g)];
    expect(named.length).toBeGreaterThan(5);
    for (const [, status, reason] of named) {
      expect(answers.has(reason!), `${reason} is a reason the handler answers with`).toBe(true);
      expect(Number(status), reason).toBe(answers.get(reason!)!.status);
    }
  });
});
