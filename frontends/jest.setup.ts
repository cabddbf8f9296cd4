import '@testing-library/jest-dom';
import { TextDecoder, TextEncoder } from 'node:util';
import { MessageChannel } from 'node:worker_threads';
import { configure } from '@testing-library/react';

// findBy*/waitFor wait up to 5 s instead of 1 s: on a 2-core machine running the backend suites
// beside these, a screen's first answer can take longer than a second (a wait, not a time limit
// on the product: nothing here asserts speed).
configure({ asyncUtilTimeout: 5000 });

// jsdom lacks these: react-router reads TextEncoder when it loads, antd's forms use MessageChannel.
if (!globalThis.TextEncoder) Object.assign(globalThis, { TextEncoder, TextDecoder });
if (!globalThis.MessageChannel) {
  // A Node port with a listener keeps the process alive until it is closed, and React's scheduler
  // (and antd's forms) leave theirs listening: every channel a file opened is closed after the file,
  // or the jest worker that ran it cannot exit ("failed to exit gracefully").
  const opened: MessageChannel[] = [];
  class ClosedAfterTheFile extends MessageChannel {
    constructor() {
      super();
      opened.push(this);
    }
  }
  Object.assign(globalThis, { MessageChannel: ClosedAfterTheFile });
  afterAll(() => {
    for (const channel of opened.splice(0)) {
      channel.port1.close();
      channel.port2.close();
    }
  });
}

// jsdom's getComputedStyle matches the element against every style rule of the page through
// nwsapi, whose cache of compiled selectors keeps the last 1,000. An antd screen injects about
// 2,600 distinct selectors, so each pass over the rules evicted every selector before its next
// use and compiled all of them again: about half the CPU of a screen test (every *ByRole query
// and every user-event click asks for the styles of the element and its ancestors). The same
// engine, as several instances that each see at most 500 of the selectors, compiles each once;
// what matches is unchanged. jsdom creates this matcher lazily, so setting it first replaces it.
type Nwsapi = { match(selectors: string, element: Element): boolean; configure(options: object): void };
const createNwsapi = require('nwsapi') as (global: {
  document: Document;
  DOMException: typeof DOMException;
}) => Nwsapi;
const SELECTORS_PER_ENGINE = 500;
const engines: Nwsapi[] = [];
const engineOf = new Map<string, Nwsapi>();
function engineFor(selectors: string): Nwsapi {
  let engine = engineOf.get(selectors);
  if (engine) return engine;
  engine = engines[Math.floor(engineOf.size / SELECTORS_PER_ENGINE)];
  if (!engine) {
    engine = createNwsapi({ document, DOMException: window.DOMException });
    // jsdom's own settings for this matcher (living/helpers/selectors.js, matchesDontThrow).
    engine.configure({ LOGERRORS: false, VERBOSITY: false, IDS_DUPES: true, MIXEDCASE: true });
    engines.push(engine);
  }
  engineOf.set(selectors, engine);
  return engine;
}
const implKey = Object.getOwnPropertySymbols(document).find((key) => key.description === 'impl');
const documentImpl =
  implKey && (document as unknown as Record<symbol, { _nwsapiDontThrow?: unknown }>)[implKey];
if (!documentImpl) throw new Error('jsdom changed: no document impl to give the style matcher to');
documentImpl._nwsapiDontThrow = {
  match: (selectors: string, element: Element) => engineFor(selectors).match(selectors, element),
};

// jsdom implements getComputedStyle without pseudo-elements (antd asks for ::before sizes).
const computedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (element: Element) => computedStyle(element);

// antd reads these browser APIs that jsdom does not have.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
if (!window.ResizeObserver) {
  window.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

afterEach(() => {
  sessionStorage.clear();
});

// jsdom has no layout: its scrollTo only logs "Not implemented". Tests that care spy on it.
window.scrollTo = (() => {}) as typeof window.scrollTo;
