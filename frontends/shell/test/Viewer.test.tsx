import { act, fireEvent, render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { Viewer } from '../src/features/pages/components/gallery/Viewer';
import { CAROUSEL_INTERVAL_MS, Carousel } from '../src/features/pages/components/home/Carousel';

const images = ['a', 'b', 'c'].map((n) => ({
  src: `/img/${n}.svg`,
  alt: `Photo ${n}`,
  caption: `Caption ${n}`,
}));
const loadCurrent = () => fireEvent.load(screen.getByRole('img'));

describe('gallery viewer (spec §1, §9)', () => {
  it("shows the caption and the counter 'n of m'; hides the arrow at the first and last image", () => {
    render(<Viewer images={images} start={0} onClose={() => {}} />);
    expect(screen.getByText('Caption a')).toBeInTheDocument();
    expect(screen.getByText('1 of 3')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Previous image' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next image' })).toBeInTheDocument();
    loadCurrent();
    fireEvent.keyDown(window, { key: 'ArrowRight' });
    loadCurrent();
    fireEvent.keyDown(window, { key: 'ArrowRight' });
    expect(screen.getByText('3 of 3')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Next image' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous image' })).toBeInTheDocument();
  });

  it('blocks navigation until the current image has loaded', () => {
    render(<Viewer images={images} start={1} onClose={() => {}} />);
    fireEvent.keyDown(window, { key: 'ArrowRight' });
    expect(screen.getByText('2 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next image' })).toBeDisabled();
    loadCurrent();
    fireEvent.keyDown(window, { key: 'ArrowLeft' });
    expect(screen.getByText('1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('img')).toHaveStyle({ opacity: '0', transition: 'opacity 0.3s ease' });
  });

  it('a key pressed the moment the photo has loaded is not lost (the listener is current once the arrows are enabled)', async () => {
    // As in a browser: the load is an event outside act, so React commits it in a task of its own and
    // runs passive effects in a later one; the key comes in between, when the arrows are enabled.
    const actEnvironment = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
    actEnvironment.IS_REACT_ACT_ENVIRONMENT = false;
    try {
      render(<Viewer images={images} start={0} onClose={() => {}} />);
      const next = screen.getByRole('button', { name: 'Next image' });
      const pressed = new Promise<void>((resolve) => {
        new MutationObserver((_records, observer) => {
          if ((next as HTMLButtonElement).disabled) return;
          observer.disconnect();
          window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight' }));
          resolve();
        }).observe(next, { attributes: true });
      });
      screen.getByRole('img').dispatchEvent(new Event('load'));
      await pressed;
      expect(await screen.findByText('2 of 3')).toBeInTheDocument();
    } finally {
      actEnvironment.IS_REACT_ACT_ENVIRONMENT = true;
    }
  });

  it('Escape and the close button close it; opening scrolls to the top', () => {
    const scrollTo = jest.spyOn(window, 'scrollTo').mockImplementation(() => {});
    const onClose = jest.fn();
    render(<Viewer images={images} start={0} onClose={onClose} />);
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
    fireEvent.keyDown(window, { key: 'Escape' });
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(2);
  });
});

describe('home carousel (spec §9)', () => {
  afterEach(() => jest.useRealTimers());

  it('advances every 6000 ms', () => {
    jest.useFakeTimers();
    const slides = images.map((i) => ({ src: i.src, alt: i.alt, title: i.caption, text: '' }));
    const { container } = render(<Carousel slides={slides} />);
    const active = () => container.querySelector('.slide.active img')?.getAttribute('alt');
    expect(CAROUSEL_INTERVAL_MS).toBe(6000);
    expect(active()).toBe('Photo a');
    act(() => jest.advanceTimersByTime(5999));
    expect(active()).toBe('Photo a');
    act(() => jest.advanceTimersByTime(1));
    expect(active()).toBe('Photo b');
    act(() => jest.advanceTimersByTime(12_000));
    expect(active()).toBe('Photo a');
  });

  it("asks for a slide's photo only when it is shown or next: the server's markup for the first alone", () => {
    jest.useFakeTimers();
    const slides = images.map((i) => ({ src: i.src, alt: i.alt, title: i.caption, text: '' }));
    const photos = (root: ParentNode) =>
      [...root.querySelectorAll('img')].map((img) => img.getAttribute('src'));
    const server = document.createElement('div');
    server.innerHTML = renderToString(<Carousel slides={slides} />);
    expect(photos(server)).toEqual(['/img/a.svg']);
    const { container } = render(<Carousel slides={slides} />);
    expect(photos(container)).toEqual(['/img/a.svg', '/img/b.svg']);
    act(() => jest.advanceTimersByTime(6000));
    expect(photos(container)).toEqual(['/img/a.svg', '/img/b.svg', '/img/c.svg']);
  });
});
