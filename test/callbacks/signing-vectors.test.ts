import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as SigningModule from '../../src/callbacks/signing.js';

// The published test vectors and the Python reference verifier of docs/signing.md, checked
// against each other and against both HMAC paths of the SDK (node:crypto and Web Crypto).

interface SignVector {
  name: string;
  secret: string;
  url: string;
  reference: string;
  message: string;
  signed_url: string;
}
interface VerifyVector {
  name: string;
  secrets: string[];
  url: string;
  origin?: string;
  reference: string;
}
interface RejectVector {
  name: string;
  secrets: string[];
  url: string;
  origin?: string;
  reason: string;
}
interface Vectors {
  scheme: string;
  sign: SignVector[];
  verify: VerifyVector[];
  reject: RejectVector[];
}

const root = new URL('../../', import.meta.url);
const vectors = JSON.parse(readFileSync(new URL('docs/signing-vectors.json', root), 'utf8')) as Vectors;
const doc = readFileSync(new URL('docs/signing.md', root), 'utf8');

type Signing = typeof SigningModule;

/** A fresh copy of the signing module; with `webCrypto`, one that cannot reach node:crypto. */
async function loadSigning(webCrypto: boolean): Promise<Signing> {
  vi.resetModules();
  if (webCrypto) vi.spyOn(process, 'getBuiltinModule').mockImplementation(() => undefined as never);
  return import('../../src/callbacks/signing.js');
}

const reasonOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => 'verified',
    (error: unknown) => (error as { reason?: unknown }).reason,
  );

afterEach(() => {
  vi.restoreAllMocks();
});

describe('docs/signing-vectors.json', () => {
  it('is the scheme the code implements, and covers what the docs promise', () => {
    expect(vectors.scheme).toBe('hosted-payments/v1');
    const names = [...vectors.sign, ...vectors.verify, ...vectors.reject].map((v) => v.name).join('\n');
    for (const topic of [
      'punycode',
      'non-default port',
      'default https port',
      'escapes',
      'query',
      'special',
      'rotation',
    ]) {
      expect(names).toContain(topic);
    }
    for (const topic of [
      'other host',
      'other path',
      'another query parameter',
      'other reference',
      'non-canonical',
      'padding',
      'missing',
      'shorter than 16',
    ]) {
      expect(names).toContain(topic);
    }
  });

  it('gives each signed URL the HMAC of its published message', () => {
    for (const vector of vectors.sign) {
      const mac = createHmac('sha256', vector.secret).update(vector.message).digest('base64url');
      expect(new URL(vector.signed_url).searchParams.get('hp_sig'), vector.name).toBe(mac);
    }
  });

  describe.each([
    ['node:crypto', false],
    ['Web Crypto', true],
  ])('the SDK with %s', (_label, webCrypto) => {
    it('uses that HMAC', async () => {
      const { signCallbackUrl } = await loadSigning(webCrypto);
      const subtleSign = vi.spyOn(crypto.subtle, 'sign');
      const [first] = vectors.sign;
      await signCallbackUrl(first!.url, { secret: first!.secret, reference: first!.reference });
      expect(subtleSign).toHaveBeenCalledTimes(webCrypto ? 1 : 0);
    });

    it('signs every URL as the vectors say, and verifies it back', async () => {
      const { signCallbackUrl, verifyCallbackUrl } = await loadSigning(webCrypto);
      for (const vector of vectors.sign) {
        const { secret, reference } = vector;
        expect(await signCallbackUrl(vector.url, { secret, reference }), vector.name).toBe(vector.signed_url);
        expect(await verifyCallbackUrl(vector.signed_url, { secret }), vector.name).toEqual({ reference });
      }
    });

    it('verifies every URL of the verify list', async () => {
      const { verifyCallbackUrl } = await loadSigning(webCrypto);
      for (const vector of vectors.verify) {
        const options = {
          secret: vector.secrets,
          ...(vector.origin === undefined ? {} : { origin: vector.origin }),
        };
        expect(await verifyCallbackUrl(vector.url, options), vector.name).toEqual({
          reference: vector.reference,
        });
      }
    });

    it('refuses every URL of the reject list, for the reason given', async () => {
      const { verifyCallbackUrl } = await loadSigning(webCrypto);
      for (const vector of vectors.reject) {
        const options = {
          secret: vector.secrets,
          ...(vector.origin === undefined ? {} : { origin: vector.origin }),
        };
        expect(await reasonOf(verifyCallbackUrl(vector.url, options)), vector.name).toBe(vector.reason);
      }
    });
  });
});

describe('the Python reference verifier in docs/signing.md', () => {
  const blocks = [...doc.matchAll(/```python\n([\s\S]*?)```/g)].map((match) => match[1]!);
  const verifier = blocks.find((block) => block.includes('def verify_callback_url('));

  it('stays about 20 lines', () => {
    expect(verifier).toBeDefined();
    expect(verifier!.trim().split('\n').length).toBeLessThanOrEqual(30);
  });

  it('agrees with every vector', () => {
    const driver = `
import json, sys

def run(url, secrets, origin=None):
    try:
        return {"reference": verify_callback_url(url, secrets, origin)}
    except ValueError as error:
        return {"reason": str(error)}

vectors = json.load(sys.stdin)
print(json.dumps({
    "sign": [run(v["signed_url"], [v["secret"]]) for v in vectors["sign"]],
    "verify": [run(v["url"], v["secrets"], v.get("origin")) for v in vectors["verify"]],
    "reject": [run(v["url"], v["secrets"], v.get("origin")) for v in vectors["reject"]],
}))
`;
    const python = spawnSync('python3', ['-c', `${verifier!}\n${driver}`], {
      input: JSON.stringify(vectors),
      encoding: 'utf8',
    });
    if (python.error !== undefined) {
      throw new Error(
        `python3 is needed to check docs/signing.md (apt-get install python3): ${python.error.message}`,
      );
    }
    expect(python.stderr).toBe('');
    expect(python.status).toBe(0);
    const results = JSON.parse(python.stdout) as Record<'sign' | 'verify' | 'reject', unknown[]>;
    const named = (list: { name: string }[], outcomes: unknown[]) =>
      list.map((v, i) => [v.name, outcomes[i]]);
    expect(named(vectors.sign, results.sign)).toEqual(
      named(
        vectors.sign,
        vectors.sign.map((v) => ({ reference: v.reference })),
      ),
    );
    expect(named(vectors.verify, results.verify)).toEqual(
      named(
        vectors.verify,
        vectors.verify.map((v) => ({ reference: v.reference })),
      ),
    );
    expect(named(vectors.reject, results.reject)).toEqual(
      named(
        vectors.reject,
        vectors.reject.map((v) => ({ reason: v.reason })),
      ),
    );
  });
});
