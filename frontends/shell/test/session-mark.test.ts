import { TOKEN_KEY } from '@decor/web-core';
import {
  dropServerPage,
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
const runMarkScript = () => new Function(SESSION_MARK_SCRIPT)();

afterEach(() => {
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
