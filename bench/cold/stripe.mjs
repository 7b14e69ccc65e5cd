// Cold start of the peer: import stripe and build a client.
import Stripe from 'stripe';

new Stripe('sk_test_0123456789');
