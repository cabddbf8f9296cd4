/**
 * The router, re-exported as one shared module (a federation singleton the shell provides), so the
 * remotes' links and routes live in the shell's router and webpack keeps only what is listed
 * (react-router's full index also carries server rendering). Import the router only from here.
 */

export type { Location, NavigateFunction } from 'react-router';
export {
  BrowserRouter,
  generatePath,
  Link,
  MemoryRouter,
  matchPath,
  Navigate,
  NavLink,
  Outlet,
  Route,
  Routes,
  useLocation,
  useMatch,
  useNavigate,
  useParams,
  useSearchParams,
} from 'react-router';
