import '@testing-library/jest-dom';
import { TextDecoder, TextEncoder } from 'node:util';
import { MessageChannel } from 'node:worker_threads';
import { configure } from '@testing-library/react';
import { installStyleMatcher } from './jest-style-matcher';

// findBy*/waitFor wait up to 15 s instead of 1 s: in a full `npm test` the other Jest worker may be
// running a browser journey (a whole product and Chromium) on the same 2 cores, and a form's answer
// then came later than 5 s (twice in three full runs; never alone or beside busy loops). A wait,
// not a time limit on the product: nothing here asserts speed.
configure({ asyncUtilTimeout: 15_000 });

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

// jsdom's getComputedStyle asks one nwsapi instance to match every style rule of the page, which
// on antd's screens was about half the CPU of these tests (jest-style-matcher.ts says why).
installStyleMatcher(document, require('nwsapi'));

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
