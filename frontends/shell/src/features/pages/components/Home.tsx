import { type Product, useGetProductsQuery } from '@decor/web-core';
import { Link } from '@decor/web-core/router';
import { ContactButton } from '../../../shared/contact-button';
import { Carousel, type Slide } from './home/Carousel';
import { ABOUT_US, APART, CONTACT_INVITE, FOUNDERS, SLIDE_COPY } from './home/copy';

const primaryImage = (p: Product) => p.Images.find((i) => i.primary) ?? p.Images[0];

/** One product image per category, in catalogue order (the demo data's photos). */
function perCategory(products: readonly Product[]): Product[] {
  const seen = new Set<string>();
  return products.filter((p) => {
    if (p.category === 'Warehouse' || !primaryImage(p) || seen.has(p.category)) return false;
    seen.add(p.category);
    return true;
  });
}

export default function Home() {
  const { data: products = [] } = useGetProductsQuery({});
  const showcase = perCategory(products);
  const slides: Slide[] = showcase.slice(0, SLIDE_COPY.length).map((p, i) => ({
    src: primaryImage(p)?.url ?? '',
    alt: p.name,
    title: SLIDE_COPY[i]?.title ?? p.name,
    text: SLIDE_COPY[i]?.text ?? '',
  }));
  return (
    <div className="page">
      <Carousel slides={slides} />

      <section className="section" aria-labelledby="about-us">
        <h2 id="about-us">About us</h2>
        <p className="lead">{ABOUT_US}</p>
        <div className="cards">
          {FOUNDERS.map((f) => (
            <article key={f.name} className="card founder">
              <div
                aria-hidden="true"
                style={{
                  width: 72,
                  height: 72,
                  borderRadius: '50%',
                  background: '#efe2d0',
                  color: '#8a5a44',
                  display: 'flex',
                  alignItems: 'center',
                  justifyContent: 'center',
                  fontSize: 26,
                  fontFamily: 'Georgia, serif',
                }}
              >
                {f.name
                  .split(' ')
                  .map((part) => part[0])
                  .join('')}
              </div>
              <h3>{f.name}</h3>
              <p style={{ fontStyle: 'italic', marginBottom: 8 }}>{f.role}</p>
              <p>{f.bio}</p>
            </article>
          ))}
        </div>
      </section>

      <section className="section" aria-labelledby="our-decor">
        <h2 id="our-decor">Our Decor</h2>
        <div className="strip">
          {showcase.map((p) => (
            <Link
              key={p.id}
              to={`/inventory/${encodeURIComponent(p.category)}/${encodeURIComponent(p.subcategory)}`}
            >
              <img src={primaryImage(p)?.url} alt={p.name} loading="lazy" width={200} height={150} />
              <span>{p.category}</span>
            </Link>
          ))}
        </div>
        <p>
          <Link to="/gallery">See the whole gallery</Link>
        </p>
      </section>

      <section className="section" aria-labelledby="apart">
        <h2 id="apart">What sets us apart</h2>
        <div className="cards">
          {APART.map((a) => (
            <article key={a.title} className="card">
              <h3>{a.title}</h3>
              <p>{a.text}</p>
            </article>
          ))}
        </div>
      </section>

      <section className="section" aria-labelledby="contact-us" style={{ textAlign: 'center' }}>
        <h2 id="contact-us">Planning an event?</h2>
        <p className="lead">{CONTACT_INVITE}</p>
        <ContactButton type="primary" />
      </section>

      <p style={{ textAlign: 'center' }}>
        <Link to="/tos">Privacy Policy and End User License Agreement</Link>
      </p>
    </div>
  );
}
