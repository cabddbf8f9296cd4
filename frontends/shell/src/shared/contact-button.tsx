import { CONTACT_TEXTS } from '@decor/contracts/rules';
import { Button } from '@decor/web-core/ui';
import { createContext, useContext } from 'react';

/**
 * Opens the contact form. The contact feature's ContactProvider (placed around the frame by src/app.tsx)
 * provides it; the frame's footer and the home page only hold the button.
 */
export const OpenContact = createContext<() => void>(() => {});

/** A 'Contact us' button that opens the contact form. */
export function ContactButton({ type = 'link' }: { type?: 'link' | 'primary' | 'default' }) {
  const open = useContext(OpenContact);
  return (
    <Button type={type} onClick={open} aria-haspopup="dialog">
      {CONTACT_TEXTS.title}
    </Button>
  );
}
