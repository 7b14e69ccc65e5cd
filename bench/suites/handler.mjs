// createCallbackHandler throughput on in-process Fetch `Request`s (distinct deliveries, default
// memory dedupe store, no secret) vs parseCallback alone on the same bodies. Building each Request
// is setup (mitata computes it outside the timed call): the figure is what the handler adds.
import { compare } from '../lib/measure.mjs';
import { delivery, deliveryInit, callbackUrl } from '../fixtures/deliveries.mjs';

export async function runHandlerSuite({ sdk, mode }) {
  const { createCallbackHandler, parseCallback } = sdk.callbacks;
  const figure = {
    id: 'handler.throughput',
    label: 'webhook handler throughput',
    unit: 'ratio',
    goal: { min: 0.5 },
    oursLabel: '/req',
    baselineLabel: 'parseCallback alone',
  };
  if (createCallbackHandler === undefined || parseCallback === undefined) {
    figure.error = 'createCallbackHandler not exported yet';
    return [figure];
  }
  let events = 0;
  const handler = createCallbackHandler({ verify: false, onEvent: () => void events++ });
  let n = 0;
  const first = await handler(new Request(callbackUrl, deliveryInit(delivery(n++))));
  if (first.status >= 300) throw new Error(`handler answered ${first.status}: ${await first.text()}`);

  const result = await compare({
    *ours() {
      yield {
        [0]: () => new Request(callbackUrl, deliveryInit(delivery(n++))),
        bench: (request) => handler(request),
      };
    },
    *baseline() {
      yield { [0]: () => delivery(n++), bench: (text) => parseCallback(text) };
    },
    rounds: mode.rounds,
    options: mode.handler,
  });
  // Throughput ratio: handler requests/s over parseCallback calls/s.
  Object.assign(figure, result, {
    ratio: 1 / result.ratio,
    ratios: result.ratios.map((ratio) => 1 / ratio),
    events,
  });

  // The handler against the least any Fetch-API route must do with the same Request — read the body,
  // parse, answer. On Node 20 reading a Request body goes through web streams and alone costs ~10×
  // parseCallback, which caps the figure above (enforced in CI instead of it, see .ci/run).
  const route = async (request) => {
    parseCallback(await request.text());
    return new Response(null, { status: 204 });
  };
  const routeFigure = {
    id: 'handler.vsRoute',
    label: 'webhook handler vs bare Fetch route',
    unit: 'ratio',
    goal: { min: 0.5 },
    oursLabel: '/req',
    baselineLabel: '/req text()+parse+204',
  };
  const vsRoute = await compare({
    *ours() {
      yield {
        [0]: () => new Request(callbackUrl, deliveryInit(delivery(n++))),
        bench: (request) => handler(request),
      };
    },
    *baseline() {
      yield {
        [0]: () => new Request(callbackUrl, deliveryInit(delivery(n++))),
        bench: (request) => route(request),
      };
    },
    rounds: mode.rounds,
    options: mode.handler,
  });
  Object.assign(routeFigure, vsRoute, {
    ratio: 1 / vsRoute.ratio,
    ratios: vsRoute.ratios.map((ratio) => 1 / ratio),
  });

  // The ceiling of the first figure on this runtime: no Fetch-API handler can do less than read the
  // Request's body, and that alone, through the public API (`getReader`, one read), is measured here
  // against parseCallback alone. Informational: it shows what `handler.throughput` can reach at most.
  const ceiling = {
    id: 'handler.ceiling',
    label: 'ceiling: reading a Request body alone',
    unit: 'ratio',
    goal: { min: 0.5 },
    informational: true,
    oursLabel: '/req body read',
    baselineLabel: 'parseCallback alone',
  };
  const readOnly = async (request) => {
    const reader = request.body.getReader();
    const { value } = await reader.read();
    reader.releaseLock();
    return value;
  };
  const floor = await compare({
    *ours() {
      yield {
        [0]: () => new Request(callbackUrl, deliveryInit(delivery(n++))),
        bench: (request) => readOnly(request),
      };
    },
    *baseline() {
      yield { [0]: () => delivery(n++), bench: (text) => parseCallback(text) };
    },
    rounds: mode.rounds,
    options: mode.handler,
  });
  Object.assign(ceiling, floor, { ratio: 1 / floor.ratio, ratios: floor.ratios.map((ratio) => 1 / ratio) });
  return [figure, routeFigure, ceiling];
}
