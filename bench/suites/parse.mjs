// parseCallback(string) against JSON.parse of the same text, the eight payloads in turn — reported,
// not a budget: what matters is that it does not dominate the route, so the row also says what
// share of the node:http route's CPU per request it is (when the route suite ran).
import { do_not_optimize } from 'mitata';
import { compare } from '../lib/measure.mjs';
import { validPayloads, callbackTypes } from '../fixtures/callbacks.mjs';

export async function runParseSuite({ sdk, mode, figures: earlier = [] }) {
  const parseCallback = sdk.callbacks.parseCallback;
  const figure = {
    id: 'parse.string',
    label: 'parseCallback(string), the 8 payloads',
    unit: 'ratio',
    goal: {},
    reported: true,
    oursLabel: '/payload',
    baselineLabel: 'JSON.parse',
  };
  if (parseCallback === undefined) {
    figure.error = 'parseCallback not exported';
    return [figure];
  }
  const texts = callbackTypes.map((type) => JSON.stringify(validPayloads[type]));
  for (const [index, text] of texts.entries()) {
    const event = parseCallback(text);
    if (event.type !== callbackTypes[index])
      throw new Error(`parseCallback classified ${callbackTypes[index]} as ${event.type}`);
  }
  Object.assign(
    figure,
    await compare({
      ours: () => {
        for (let i = 0; i < texts.length; i++) do_not_optimize(parseCallback(texts[i]));
      },
      baseline: () => {
        for (let i = 0; i < texts.length; i++) do_not_optimize(JSON.parse(texts[i]));
      },
      rounds: mode.rounds,
      options: mode.micro,
      perOp: texts.length,
    }),
  );
  const route = earlier.find((other) => other.id === 'route.node.cpu' && other.runs);
  if (route) {
    const cpu = route.runs.ours.map((run) => run.cpuPerRequest).sort((a, b) => a - b);
    const share = figure.ours / cpu[cpu.length >> 1];
    figure.shareOfRoute = share;
    figure.baselineLabel = `JSON.parse; parseCallback is ${(share * 100).toFixed(1)} % of the node:http route's CPU/req`;
  }
  return [figure];
}
