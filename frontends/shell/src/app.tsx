import { ContactProvider } from './features/contact/components/contact';
import { AppFrame } from './features/frame/components/AppFrame';
import { ROUTES } from './routes';

// The public pages, for bootstrap.tsx and the server renderer to load ahead of hydrating.
export { Gallery, Home, Tos } from './features/pages/routes';

/**
 * The site: the frame around the route table's screens, inside the contact form's provider. The
 * features are composed here and import none of each other (services/contracts/test/boundaries.test.ts).
 */
export function App() {
  return (
    <ContactProvider>
      <AppFrame routes={ROUTES} />
    </ContactProvider>
  );
}
