// Cold start: import the main entry and build a client.
// The built package directory comes from the bench (HP_DIST), so a patched build can be measured too.
const { PaymentsClient } = await import(process.env.HP_DIST + '/index.js');

new PaymentsClient({ baseUrl: 'https://payments.example', apiKey: 'sk_test_0123456789' });
