// Cold start: import hosted-payments/callbacks and build a webhook handler (with a secret, as a
// handler must have).
// The built package directory comes from the bench (HP_DIST), so a patched build can be measured too.
const { createCallbackHandler } = await import(process.env.HP_DIST + '/callbacks/index.js');

createCallbackHandler({ secret: 'whsec_bench_0123456789abcdef', onEvent() {} });
