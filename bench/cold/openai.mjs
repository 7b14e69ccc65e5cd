// Cold start of the peer: import openai and build a client.
import OpenAI from 'openai';

new OpenAI({ apiKey: 'sk-test-0123456789' });
