// A stand-in for the service that answers from a function, reached through the built-in fetch
// (globalThis.fetch, which the client calls when it has no `fetch` option): the client reads the
// answers as the service's own. A client given its own `fetch` is another case — the SDK cannot
// know whether that fetch retried by itself — so tests of what the service's answer does use this.
// Each call gets a host of its own; requests to any other host go to the real fetch. Installed
// once per test file (vitest runs each file in its own process).

type Answer = (request: Request) => Response | Promise<Response>;

const realFetch = globalThis.fetch;
const answers = new Map<string, Answer>();
let hosts = 0;

/** The base URL of a fake service answering with `answer` (which may throw, as a failed fetch). */
export function fakeService(answer: Answer): string {
  if (answers.size === 0) {
    globalThis.fetch = async (input, init) => {
      const request = new Request(input, init);
      const found = answers.get(new URL(request.url).host);
      return found === undefined ? realFetch(input, init) : found(request);
    };
  }
  hosts += 1;
  const host = `service-${hosts}.payments.example`;
  answers.set(host, answer);
  return `https://${host}`;
}
