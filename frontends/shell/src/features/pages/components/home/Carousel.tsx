import { useEffect, useState } from 'react';

/** Spec §9: the carousel advances every 6000 ms. */
export const CAROUSEL_INTERVAL_MS = 6000;

export interface Slide {
  src: string;
  alt: string;
  title: string;
  text: string;
}

export function Carousel({
  slides,
  interval = CAROUSEL_INTERVAL_MS,
}: {
  slides: Slide[];
  interval?: number;
}) {
  const [index, setIndex] = useState(0);
  // Slides whose photo has been asked for. The hidden slides are in the viewport (stacked, transparent),
  // so lazy loading would fetch them all with the first paint, competing with the largest paint's photo
  // on a phone's link. The server's markup and the first render ask for the first one only; from then
  // on the active slide and the one after it (loaded a whole interval before it fades in).
  const [asked, setAsked] = useState<ReadonlySet<number>>(() => new Set([0]));
  const count = slides.length;
  useEffect(() => {
    if (count === 0) return;
    const current = index % count;
    const next = (index + 1) % count;
    setAsked((was) => (was.has(current) && was.has(next) ? was : new Set([...was, current, next])));
  }, [index, count]);
  // Restarts the timer after a manual choice.
  useEffect(() => {
    if (count < 2) return;
    const timer = setInterval(() => setIndex((i) => (i + 1) % count), interval);
    return () => clearInterval(timer);
  }, [count, interval, index]);
  if (count === 0) return <div className="carousel" aria-hidden="true" />;
  return (
    <section className="carousel" aria-roledescription="carousel" aria-label="Featured decor">
      {slides.map((slide, i) => (
        <div
          key={slide.src}
          className={`slide${i === index % count ? ' active' : ''}`}
          aria-hidden={i !== index % count}
        >
          {/* The first slide is the page's largest paint: asked for first. */}
          {asked.has(i) && (
            <img
              src={slide.src}
              alt={slide.alt}
              width={1120}
              height={490}
              loading={i === 0 ? 'eager' : 'lazy'}
              fetchPriority={i === 0 ? 'high' : 'low'}
            />
          )}
          <div className="caption">
            {i === 0 ? (
              <h1>{slide.title}</h1>
            ) : (
              <h2 style={{ color: '#fff', margin: '0 0 6px' }}>{slide.title}</h2>
            )}
            <p>{slide.text}</p>
          </div>
        </div>
      ))}
      <div className="dots">
        {slides.map((slide, i) => (
          <button
            key={slide.src}
            type="button"
            aria-label={`Show slide ${i + 1}`}
            aria-current={i === index % count}
            onClick={() => setIndex(i)}
          />
        ))}
      </div>
    </section>
  );
}
