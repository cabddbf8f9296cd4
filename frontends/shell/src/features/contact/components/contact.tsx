import { lazy, type ReactNode, Suspense, useMemo, useState } from 'react';
import { OpenContact } from '../../../shared/contact-button';

// The form is a chunk of its own (antd forms and the date picker): loaded when first opened.
const ContactModal = lazy(() => import('./ContactModal'));

/** Holds the contact form, opened from anywhere inside (shared ContactButton: the footer, the home page). */
export function ContactProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const show = useMemo(() => () => setOpen(true), []);
  return (
    <OpenContact.Provider value={show}>
      {children}
      {open ? (
        <Suspense fallback={null}>
          <ContactModal open onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </OpenContact.Provider>
  );
}
