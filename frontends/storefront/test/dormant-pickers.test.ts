/**
 * The hand-over of a dormant date field (the server's markup) to its picker, in the orders a loaded
 * phone can produce: the field's boundary hydrates in a pass after the area's (so the listener is
 * there before the field's own code is), and the visitor's Enter can come while the picker takes over.
 * "React" here is a listener on the page's root that hears events only once the field has hydrated,
 * as React ignores events on markup it has not hydrated.
 */
type Pickers = typeof import('../src/shared/availability/components/dormant-pickers');

const DAY = '2027-02-03';
let pickers: Pickers;
let heard: string[];
let hydrated: boolean;
let input: HTMLInputElement;
let disarm: () => void;
const reach = jest.fn();

beforeEach(async () => {
  jest.resetModules(); // the module keeps the page's fields: a fresh page each test
  pickers = await import('../src/shared/availability/components/dormant-pickers');
  heard = [];
  hydrated = false;
  reach.mockClear();
  const root = document.createElement('div');
  root.innerHTML = '<div role="group"><label for="day">Check availability</label><input id="day"></div>';
  document.body.replaceChildren(root);
  for (const type of ['focusin', 'input', 'keydown']) {
    root.addEventListener(type, (event) => {
      if (!hydrated) return;
      const detail = event instanceof KeyboardEvent ? event.key : type === 'input' ? input.value : '';
      heard.push(detail ? `${type}:${detail}` : type);
    });
  }
  input = document.getElementById('day') as HTMLInputElement;
  disarm = pickers.armDormantPickers(root.firstElementChild as HTMLElement, reach);
});
afterEach(() => disarm());

const press = (key: string) => input.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));

it('Enter pressed in a field whose boundary has not hydrated yet loads the picker and is handed to it', async () => {
  input.focus();
  input.value = DAY;
  press('Enter');
  expect(reach).toHaveBeenCalled();
  hydrated = true;
  await pickers.takeOver('day', '');
  expect(heard).toEqual(['focusin', `input:${DAY}`, 'keydown:Enter']);
});

it('Enter pressed while the picker takes over waits behind the focus and the day typed', async () => {
  input.focus();
  input.value = DAY;
  hydrated = true;
  const takingOver = pickers.takeOver('day', '');
  press('Enter'); // the picker is listening, but has not been given the day yet
  await takingOver;
  expect(heard).toEqual(['focusin', `input:${DAY}`, 'keydown:Enter']);
});

it("once the picker has taken over, the field's events are its own, once each", async () => {
  hydrated = true;
  await pickers.takeOver('day', '');
  reach.mockClear();
  input.focus();
  press('Escape');
  expect(heard).toEqual(['focusin', 'keydown:Escape']);
  expect(reach).not.toHaveBeenCalled();
});
