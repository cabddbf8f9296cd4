import '@testing-library/jest-dom';
import { TextDecoder, TextEncoder } from 'node:util';
import { MessageChannel } from 'node:worker_threads';

// jsdom lacks these: react-router reads TextEncoder when it loads, antd's forms use MessageChannel.
if (!globalThis.TextEncoder) Object.assign(globalThis, { TextEncoder, TextDecoder });
if (!globalThis.MessageChannel) Object.assign(globalThis, { MessageChannel });

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
