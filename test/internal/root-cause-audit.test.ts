// Root cause audit: the ConnectionError message names the deepest system code and the IP address
// and port it concerns — and never the platform's own text, a host name or a code-shaped secret.
import { describe, expect, it } from 'vitest';
import { rootCause } from '../../src/internal/root-cause.js';

const wrap = (cause: unknown, depth: number): unknown => {
  let error = cause;
  for (let i = 0; i < depth; i += 1) error = new TypeError('fetch failed', { cause: error });
  return error;
};

describe('rootCause audit', () => {
  it('names the code and an IPv4 address with its port', () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED'), {
      code: 'ECONNREFUSED',
      address: '127.0.0.1',
      port: 4010,
    });
    expect(rootCause(wrap(cause, 1))).toBe('ECONNREFUSED 127.0.0.1:4010');
  });

  it('brackets an IPv6 address', () => {
    const cause = Object.assign(new Error('x'), { code: 'ECONNREFUSED', address: '::1', port: 4010 });
    expect(rootCause(wrap(cause, 1))).toBe('ECONNREFUSED [::1]:4010');
  });

  it('names the address without a port when there is none', () => {
    const cause = Object.assign(new Error('x'), { code: 'EHOSTUNREACH', address: '10.0.0.7' });
    expect(rootCause(cause)).toBe('EHOSTUNREACH 10.0.0.7');
  });

  it("reads undici's socket for the address", () => {
    const cause = Object.assign(new Error('other side closed'), {
      code: 'UND_ERR_SOCKET',
      socket: { remoteAddress: '10.1.2.3', remotePort: 443 },
    });
    expect(rootCause(wrap(cause, 1))).toBe('UND_ERR_SOCKET 10.1.2.3:443');
  });

  it('keeps the deepest code of the chain', () => {
    const inner = Object.assign(new Error('x'), { code: 'ECONNRESET' });
    const outer = Object.assign(new Error('y', { cause: inner }), { code: 'UND_ERR_SOCKET' });
    expect(rootCause(outer)).toBe('ECONNRESET');
  });

  it('keeps an address found higher up when the deeper error has none', () => {
    const inner = Object.assign(new Error('x'), { code: 'ECONNRESET' });
    const outer = Object.assign(new Error('y', { cause: inner }), { address: '192.0.2.1', port: 80 });
    expect(rootCause(outer)).toBe('ECONNRESET 192.0.2.1:80');
  });

  it('follows a chain several causes deep', () => {
    const cause = Object.assign(new Error('x'), { code: 'ETIMEDOUT' });
    expect(rootCause(wrap(cause, 6))).toBe('ETIMEDOUT');
  });

  it('reads the first error of an AggregateError (happy eyeballs)', () => {
    const first = Object.assign(new Error('x'), { code: 'ECONNREFUSED', address: '127.0.0.1', port: 1 });
    const second = Object.assign(new Error('x'), { code: 'ENETUNREACH', address: '::1', port: 1 });
    const aggregate = new AggregateError([first, second], 'all failed');
    expect(rootCause(new TypeError('fetch failed', { cause: aggregate }))).toBe('ECONNREFUSED 127.0.0.1:1');
  });

  it('never shows a host name, a message or a code that is not a system code', () => {
    const cause = Object.assign(new Error('Authorization: Bearer sk_live_abc'), {
      code: 'sk_live_abc',
      address: 'api.internal.example',
      port: 443,
    });
    expect(rootCause(wrap(cause, 1))).toBe('network error');
  });

  it('never shows a host name as the address', () => {
    const cause = Object.assign(new Error('x'), {
      code: 'ECONNREFUSED',
      address: 'db.internal.example',
      port: 443,
    });
    expect(rootCause(wrap(cause, 1))).toBe('ECONNREFUSED');
  });

  it('says which port fetch refused', () => {
    const error = new TypeError('fetch failed', { cause: new Error('bad port') });
    expect(rootCause(error, new URL('http://127.0.0.1:6000/'))).toBe(
      'fetch refuses port 6000, a port browsers block',
    );
  });

  it('keeps what it found when a property of the chain throws when read', () => {
    const inner = {
      get code(): string {
        throw new Error('getter');
      },
    };
    const outer = Object.assign(new Error('y', { cause: inner }), { code: 'ECONNRESET' });
    expect(rootCause(outer)).toBe('ECONNRESET');
  });
});
