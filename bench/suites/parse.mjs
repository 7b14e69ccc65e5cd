// parseCallback(string) per payload vs JSON.parse; parseCallback(object) vs the hand-written typeof
// validator; rejection of near-miss payloads vs the valid path.
import { do_not_optimize } from 'mitata';
import { compare } from '../lib/measure.mjs';
import { validPayloads, invalidPayloads, callbackTypes } from '../fixtures/callbacks.mjs';
import { validateCallbackByHand } from '../baselines/typeof-validator.mjs';

export async function runParseSuite({ sdk, mode }) {
  const parseCallback = sdk.callbacks.parseCallback;
  const figures = [];
  const missing = parseCallback === undefined ? 'parseCallback not exported yet' : undefined;

  // A webhook route sees every payload type: let the engine see them all, as strings and objects,
  // before timing any one. Otherwise each figure runs while the engine is still reacting to the
  // type just added (a deoptimisation, then a re-optimisation), and which figure lands in that
  // window varies from run to run.
  if (!missing) {
    const texts = callbackTypes.map((type) => JSON.stringify(validPayloads[type]));
    for (let i = 0; i < 40_000; i++) {
      const k = i % texts.length;
      do_not_optimize(parseCallback(texts[k]));
      do_not_optimize(parseCallback(validPayloads[callbackTypes[k]]));
    }
  }

  for (const type of callbackTypes) {
    const figure = {
      id: `parse.string.${type}`,
      label: `parseCallback(string): ${type}`,
      unit: 'ratio',
      goal: { max: 1.5 },
      baselineLabel: 'JSON.parse',
    };
    figures.push(figure);
    if (missing) {
      figure.error = missing;
      continue;
    }
    const text = JSON.stringify(validPayloads[type]);
    const event = parseCallback(text);
    if (event.type !== type) throw new Error(`parseCallback classified ${type} as ${event.type}`);
    Object.assign(
      figure,
      await compare({
        ours: () => do_not_optimize(parseCallback(text)),
        baseline: () => do_not_optimize(JSON.parse(text)),
        rounds: mode.rounds,
        options: mode.micro,
      }),
    );
  }

  const objects = callbackTypes.map((type) => validPayloads[type]);
  const objectFigure = {
    id: 'parse.object',
    label: 'parseCallback(object), the 8 payloads',
    unit: 'ratio',
    goal: { max: 8 },
    oursLabel: '/payload',
    baselineLabel: 'typeof validator',
  };
  figures.push(objectFigure);
  if (missing) objectFigure.error = missing;
  else {
    for (const object of objects)
      if (!validateCallbackByHand(object)) throw new Error('baseline rejects a valid payload');
    Object.assign(
      objectFigure,
      await compare({
        ours: () => {
          for (let i = 0; i < objects.length; i++) do_not_optimize(parseCallback(objects[i]));
        },
        baseline: () => {
          for (let i = 0; i < objects.length; i++) do_not_optimize(validateCallbackByHand(objects[i]));
        },
        rounds: mode.rounds,
        options: mode.micro,
        perOp: objects.length,
      }),
    );
  }

  // Wire form (strings), as an attacker's request reaches the handler; the valid side parses the 8
  // valid payloads, the invalid side rejects the near misses plus a truncated JSON text.
  const validTexts = objects.map((object) => JSON.stringify(object));
  const invalidTexts = [
    ...Object.values(invalidPayloads).map((object) => JSON.stringify(object)),
    '{"id": "pay_1", "status": 2',
  ];
  const invalidFigure = {
    id: 'parse.invalid',
    label: 'invalid payload rejection (throw + catch)',
    unit: 'ratio',
    goal: { max: 3 },
    oursLabel: '/payload',
    baselineLabel: '/payload valid path',
  };
  figures.push(invalidFigure);
  if (missing) invalidFigure.error = missing;
  else {
    for (const text of invalidTexts) {
      let threw = false;
      try {
        parseCallback(text);
      } catch {
        threw = true;
      }
      if (!threw) throw new Error(`parseCallback accepted an invalid payload: ${text}`);
    }
    const rejectAll = () => {
      for (let i = 0; i < invalidTexts.length; i++) {
        try {
          parseCallback(invalidTexts[i]);
        } catch (error) {
          do_not_optimize(error);
        }
      }
    };
    const acceptAll = () => {
      for (let i = 0; i < validTexts.length; i++) do_not_optimize(parseCallback(validTexts[i]));
    };
    // per payload on both sides: scale the invalid batch to the valid batch's count
    const result = await compare({
      ours: rejectAll,
      baseline: acceptAll,
      rounds: mode.rounds,
      options: mode.micro,
    });
    const scale = validTexts.length / invalidTexts.length;
    Object.assign(invalidFigure, {
      ours: result.ours / invalidTexts.length,
      baseline: result.baseline / validTexts.length,
      ratio: result.ratio * scale,
      ratios: result.ratios.map((ratio) => ratio * scale),
    });
  }
  return figures;
}
