import { useAppSelector, useHydrated } from '@decor/web-core';
import { Link, NavLink } from '@decor/web-core/router';
import { Button, DownOutlined, Flex, Layout, UserOutlined } from '@decor/web-core/ui';
import { lazy, Suspense, useState } from 'react';

export const BRAND = 'Gala & Grove Event Rentals';

// The sign-in form and the user menu are chunks of their own (with antd's forms and overlays):
// a visitor who never signs in never downloads them.
const LoginModal = lazy(() => import('./LoginModal'));
const UserMenu = lazy(() => import('./UserMenu'));

const linkStyle = ({ isActive }: { isActive: boolean }) => ({
  color: '#faf7f2',
  padding: '6px 8px',
  borderRadius: 6,
  background: isActive ? 'rgba(255,255,255,0.14)' : 'transparent',
  textDecoration: 'none',
  whiteSpace: 'nowrap' as const,
});

export function TopBar() {
  // A click before hydration is lost, so the Login button waits, disabled, until it works.
  const hydrated = useHydrated();
  const user = useAppSelector((s) => s.session.user);
  const loading = useAppSelector((s) => s.session.loading);
  const [loginOpen, setLoginOpen] = useState(false);

  return (
    <Layout.Header
      style={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        columnGap: 12,
        rowGap: 4,
        height: 'auto',
        minHeight: 64,
        lineHeight: 1.5,
        paddingBlock: 8,
        paddingInline: 'clamp(8px, 3vw, 32px)',
      }}
    >
      <Link
        to="/"
        style={{ color: '#f3d9b1', fontWeight: 600, fontSize: 18, whiteSpace: 'nowrap', marginRight: 'auto' }}
        aria-label={`${BRAND} home`}
      >
        <span className="brand-long">{BRAND}</span>
      </Link>
      <nav aria-label="Main">
        <Flex gap={2} align="center">
          <NavLink to="/" end style={linkStyle}>
            Home
          </NavLink>
          <NavLink to="/gallery" style={linkStyle}>
            Gallery
          </NavLink>
          <NavLink to="/inventory" style={linkStyle}>
            Inventory
          </NavLink>
          {user ? (
            <Suspense fallback={<UserButton name={user.displayName} />}>
              <UserMenu>
                <UserButton name={user.displayName} />
              </UserMenu>
            </Suspense>
          ) : loading ? null : (
            <Button type="primary" disabled={!hydrated} onClick={() => setLoginOpen(true)}>
              Login
            </Button>
          )}
        </Flex>
      </nav>
      {loginOpen ? (
        <Suspense fallback={null}>
          <LoginModal open={loginOpen} onClose={() => setLoginOpen(false)} />
        </Suspense>
      ) : null}
    </Layout.Header>
  );
}

/** The user menu's trigger; the dropdown hands it onClick, ref and aria props, passed on to the button. */
export function UserButton({ name, ...trigger }: { name: string } & Record<string, unknown>) {
  return (
    <Button
      type="text"
      style={{ color: '#faf7f2' }}
      icon={<UserOutlined />}
      aria-label={`User menu of ${name}`}
      {...trigger}
    >
      <span style={{ maxWidth: 160, overflow: 'hidden', textOverflow: 'ellipsis' }}>{name}</span>
      <DownOutlined />
    </Button>
  );
}
