import { EARLY_KEYS_AREA, EARLY_KEYS_SCRIPT, takeEarlyKeys } from '../src/early-keys';

/** A server page's markup: one field inside the area, one outside it. */
function page(): void {
  const area = document.createElement('div');
  for (const [name, value] of Object.entries(EARLY_KEYS_AREA)) area.setAttribute(name, value);
  area.innerHTML = '<label for="day">Day</label><input id="day"><input>';
  document.body.replaceChildren(area, Object.assign(document.createElement('input'), { id: 'elsewhere' }));
}
const press = (id: string, key: string) =>
  document.getElementById(id)?.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));

const added: [string, EventListenerOrEventListenerObject, unknown][] = [];
beforeEach(() => {
  page();
  const spy = jest.spyOn(document, 'addEventListener');
  new Function(EARLY_KEYS_SCRIPT)(); // as the page's head script runs it
  for (const [type, listener, options] of spy.mock.calls) if (listener) added.push([type, listener, options]);
  spy.mockRestore();
});
afterEach(() => {
  for (const [type, listener, options] of added.splice(0))
    document.removeEventListener(type, listener, options as boolean | undefined);
});

describe('keys pressed before the page has hydrated (the head script)', () => {
  it("notes Enter and Escape in the area's inputs, in order, and nothing else", () => {
    press('day', '2');
    press('day', 'Enter');
    press('elsewhere', 'Enter');
    press('day', 'Escape');
    expect(takeEarlyKeys()).toEqual([
      ['day', 'Enter'],
      ['day', 'Escape'],
    ]);
  });

  it('stops noting once they are taken: the taker listens itself from then on', () => {
    press('day', 'Enter');
    expect(takeEarlyKeys()).toEqual([['day', 'Enter']]);
    press('day', 'Enter');
    expect(takeEarlyKeys()).toEqual([]);
  });

  it('an input without an id is not noted (nothing could hand its keys over)', () => {
    const anonymous = document.querySelector('input:not([id])') as HTMLInputElement;
    anonymous.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    expect(takeEarlyKeys()).toEqual([]);
  });
});
