import { CONTACT_TEXTS } from '@decor/contracts/rules';
import { Button } from '@decor/web-core/ui';
import { createContext, lazy, type ReactNode, Suspense, useContext, useMemo, useState } from 'react';

// The form is a chunk of its own (antd forms and the date picker): loaded when first opened.
const ContactModal = lazy(() => import('./ContactModal'));

const OpenContact = createContext<() => void>(() => {});

/** Holds the contact form, opened from anywhere inside (the footer, the home page). */
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

/** A 'Contact us' button that opens the contact form. */
export function ContactButton({ type = 'link' }: { type?: 'link' | 'primary' | 'default' }) {
  const open = useContext(OpenContact);
  return (
    <Button type={type} onClick={open} aria-haspopup="dialog">
      {CONTACT_TEXTS.title}
    </Button>
  );
}
