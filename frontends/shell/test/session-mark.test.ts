import { TOKEN_KEY } from '@decor/web-core';
import {
  dropServerPage,
  HELD_SCRIPT_FALLBACK_MS,
  HELD_SCRIPT_TYPE,
  SESSION_BOOT,
  SESSION_CLASS,
  SESSION_MARK_SCRIPT,
  SESSION_MARK_STYLE,
} from '../src/session-mark';

/** A server-rendered page's body as the gateway composes it (gateway/src/page-render.ts). */
function serverPage(): HTMLElement {
  document.head.innerHTML = SESSION_MARK_STYLE;
  document.body.innerHTML = `${SESSION_BOOT}<div id="root"><main id="main"><h1>Gallery</h1></main></div>`;
  return document.getElementById('root') as HTMLElement;
}
/** The document listeners each run adds, removed after each test (the document outlives it). */
const listeners: [string, EventListenerOrEventListenerObject, unknown][] = [];
function runMarkScript(): void {
  const added = jest.spyOn(document, 'addEventListener');
  try {
    new Function(SESSION_MARK_SCRIPT)();
  } finally {
    for (const [type, listener, options] of added.mock.calls)
      if (listener) listeners.push([type, listener, options]);
    added.mockRestore();
  }
}

afterEach(() => {
  for (const [type, listener, options] of listeners.splice(0))
    document.removeEventListener(type, listener, options as boolean | EventListenerOptions | undefined);
  document.documentElement.classList.remove(SESSION_CLASS);
  sessionStorage.clear();
});

describe("the session mark (a signed-in load never shows the visitor's page)", () => {
  it('marks <html> only when a token is stored, and the style then shows the loader, not the page', () => {
    const root = serverPage();
    runMarkScript();
    expect(document.documentElement.classList.contains(SESSION_CLASS)).toBe(false);
    expect(getComputedStyle(root).display).not.toBe('none');

    sessionStorage.setItem(TOKEN_KEY, 'a.b.c');
    runMarkScript();
    expect(document.documentElement.classList.contains(SESSION_CLASS)).toBe(true);
    expect(getComputedStyle(root).display).toBe('none');
    expect(getComputedStyle(document.getElementById('decor-boot') as HTMLElement).display).toBe('flex');
  });

  it("drops the server's markup for the shell's loader and unmarks <html>, the root shown again", () => {
    sessionStorage.setItem(TOKEN_KEY, 'a.b.c');
    const root = serverPage();
    runMarkScript();
    dropServerPage(root);
    expect(root.innerHTML).toBe('<div class="boot">Loading…</div>');
    expect(document.getElementById('decor-boot')).toBeNull();
    expect(document.documentElement.classList.contains(SESSION_CLASS)).toBe(false);
    expect(getComputedStyle(root).display).not.toBe('none');
  });
});

describe("the page's entry, held back until the page is painted", () => {
  const added = () => [...document.head.querySelectorAll('script[src]')].map((s) => s.getAttribute('src'));

  beforeEach(() => {
    document.head.innerHTML = ['/main.0123456789.js', '/second.0123456789.js']
      .map((src) => `<script type="${HELD_SCRIPT_TYPE}" data-src="${src}"></script>`)
      .join('');
  });

  it('starts the held scripts in order, once, when the parser has ended (no paint timing here: jsdom)', () => {
    expect('PerformanceObserver' in window).toBe(false);
    runMarkScript();
    expect(added()).toEqual([]);
    document.dispatchEvent(new Event('DOMContentLoaded'));
    expect(added()).toEqual(['/main.0123456789.js', '/second.0123456789.js']);
    const scripts = [...document.head.querySelectorAll<HTMLScriptElement>('script[src]')];
    expect(scripts.map((s) => s.async)).toEqual([false, false]);
    document.dispatchEvent(new Event('DOMContentLoaded'));
    expect(added()).toHaveLength(2);
  });

  it('waits for the first contentful paint where paint timing exists, and starts a second after the parser without one', () => {
    jest.useFakeTimers();
    const observers: ((
      list: { getEntriesByName(name: string): unknown[] },
      o: { disconnect(): void },
    ) => void)[] = [];
    const Observer = jest.fn((callback: (typeof observers)[number]) => {
      observers.push(callback);
      return { observe: jest.fn(), disconnect: jest.fn() };
    });
    Object.assign(Observer, { supportedEntryTypes: ['paint'] });
    Object.assign(window, { PerformanceObserver: Observer });
    try {
      const painted = (names: string[]) => ({
        getEntriesByName: (n: string) => names.filter((x) => x === n),
      });
      runMarkScript();
      document.dispatchEvent(new Event('DOMContentLoaded'));
      (observers[0] as (typeof observers)[number])(painted(['first-paint']), { disconnect: jest.fn() });
      expect(added()).toEqual([]);
      (observers[0] as (typeof observers)[number])(painted(['first-contentful-paint']), {
        disconnect: jest.fn(),
      });
      expect(added()).toEqual(['/main.0123456789.js', '/second.0123456789.js']);

      // No paint reported (a background tab): the parser's end plus the fallback.
      document.head.innerHTML = `<script type="${HELD_SCRIPT_TYPE}" data-src="/main.0123456789.js"></script>`;
      runMarkScript();
      document.dispatchEvent(new Event('DOMContentLoaded'));
      jest.advanceTimersByTime(HELD_SCRIPT_FALLBACK_MS - 1);
      expect(added()).toEqual([]);
      jest.advanceTimersByTime(1);
      expect(added()).toEqual(['/main.0123456789.js']);
    } finally {
      Reflect.deleteProperty(window, 'PerformanceObserver');
      jest.useRealTimers();
    }
  });
});
