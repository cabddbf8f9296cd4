/**
 * The style matcher the jsdom tests run with (frontends/jest-style-matcher.ts, installed by
 * jest.setup.ts): it may pass over an element only when the selector cannot match it, so that
 * computed styles stay exactly jsdom's.
 */
import { requiredOfSubject } from '../../jest-style-matcher';

describe("what a selector's subject must have", () => {
  it.each([
    ['.a', ['.a']],
    ['.a .b:hover', ['.b']],
    [':where(.css-x).ant-btn', ['.ant-btn']],
    [':where(.css-x).ant-btn .ant-btn-icon>svg', ['svg']],
    [':where(.css-x) a', ['a']],
    ['.a, span', ['.a', 'span']],
    ['.a:not(.b)', ['.a']],
    ['.a:nth-child(2n+1)', ['.a']],
    ['a[href=".x y"]', ['a']],
    ['.ant-btn::before', ['.ant-btn']],
    ['.Mixed-Case', ['.mixed-case']],
    ['.a ~ .b', ['.b']],
    ['.a + .b', ['.b']],
  ])('%s: %j', (selector, required) => {
    expect(requiredOfSubject(selector)).toEqual(required);
  });

  it.each([
    '*',
    '.a >*',
    '.a [class^="b"]',
    ':not(.a)',
    ':is(.a, .b)',
    '.a, *',
    '.a\\.b',
    'svg|a',
    '[data-x]',
  ])('%s: anything may match', (selector) => {
    expect(requiredOfSubject(selector)).toBeNull();
  });
});

describe('computed styles through it', () => {
  // Each with the number of elements it matches in the page below.
  const selectors: [string, number][] = [
    ['.card', 2],
    ['.card .title', 2],
    [':where(.theme).card > .title', 2],
    ['section.card', 1],
    ['p:not(.title)', 3],
    ['.card span, .other', 2],
    ['.TITLE', 0],
    ['h2.title:first-child', 1],
    ['.card [class^="ti"]', 2],
    ['.card >*', 4],
    ['p[data-x=".card"]', 1],
    ['.card ~ .after', 1],
  ];

  afterEach(() => {
    document.head.innerHTML = '';
    document.body.innerHTML = '';
  });

  it.each(selectors)('%s applies to the %d elements element.matches says it matches', (selector, count) => {
    document.body.innerHTML = `
      <section class="theme card"><h2 class="title">T</h2><p class="text" data-x=".card">x</p>
        <span class="title">s</span></section>
      <div class="card other"><p>y</p></div>
      <p class="after">z</p>`;
    const style = document.createElement('style');
    style.textContent = `${selector} { background-color: rgb(1, 2, 3); }`;
    document.head.append(style);
    const elements = [...document.body.querySelectorAll('*')];
    const styled = elements.filter((e) => getComputedStyle(e).backgroundColor === 'rgb(1, 2, 3)');
    const matching = elements.filter((e) => e.matches(selector));
    expect(matching).toHaveLength(count);
    expect(styled).toEqual(matching);
  });

  it('a class added or removed is seen by the next computed style', () => {
    document.body.innerHTML = '<p class="title">x</p>';
    const style = document.createElement('style');
    style.textContent = '.hidden { visibility: hidden; }';
    document.head.append(style);
    const p = document.querySelector('p') as HTMLElement;
    expect(getComputedStyle(p).visibility).toBe('visible');
    p.classList.add('hidden');
    expect(getComputedStyle(p).visibility).toBe('hidden');
    p.classList.remove('hidden');
    expect(getComputedStyle(p).visibility).toBe('visible');
  });
});
