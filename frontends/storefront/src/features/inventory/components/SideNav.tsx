import {
  isStaff,
  setActiveSubCategory,
  setOpenedCategory,
  setSideNavVisible,
  toggleSideNav,
  useAppDispatch,
  useAppSelector,
} from '@decor/web-core';
import { Link } from '@decor/web-core/router';
import { Button, DownOutlined, Grid, MenuOutlined, RightOutlined, Spin } from '@decor/web-core/ui';

/** Spec §9: the side navigation is 250 px wide. */
export const SIDE_NAV_WIDTH = 250;

export const inventoryPath = (category: string, subcategory: string) =>
  `/inventory/${encodeURIComponent(category)}/${encodeURIComponent(subcategory)}`;

/**
 * Categories with expandable subcategories (spec §2): the active one highlighted, opened from the URL,
 * a toggle on small screens.
 */
export function SideNav() {
  const dispatch = useAppDispatch();
  const screens = Grid.useBreakpoint();
  const small = !screens.md;
  const { categories, openedCategory, activeSubCategory, loading, visible, doNotShowSideNav } =
    useAppSelector((s) => s.sideNav);
  const staff = useAppSelector((s) => isStaff(s.session.user?.permissions));
  if (doNotShowSideNav) return null;
  const shown = categories.filter((c) => staff || c.name !== 'Warehouse');
  const open = !small || visible;

  return (
    <div
      style={{ flex: small ? '0 0 auto' : `0 0 ${SIDE_NAV_WIDTH}px`, width: small ? '100%' : SIDE_NAV_WIDTH }}
    >
      {small ? (
        <Button
          icon={<MenuOutlined />}
          onClick={() => dispatch(toggleSideNav())}
          aria-expanded={visible}
          aria-controls="side-nav"
          style={{ margin: '12px 12px 0' }}
        >
          Categories
        </Button>
      ) : null}
      <nav
        id="side-nav"
        aria-label="Inventory categories"
        hidden={!open}
        style={{
          width: small ? 'auto' : SIDE_NAV_WIDTH,
          background: '#fff',
          borderRight: small ? 'none' : '1px solid #eee4d8',
          margin: small ? 12 : 0,
          borderRadius: small ? 8 : 0,
          minHeight: small ? undefined : '100%',
          padding: '12px 0',
          boxSizing: 'border-box',
        }}
      >
        {loading && shown.length === 0 ? <Spin style={{ margin: 16 }} /> : null}
        <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {shown.map((category) => {
            const expanded = openedCategory === category.name;
            return (
              <li key={category.id}>
                <button
                  type="button"
                  aria-expanded={expanded}
                  onClick={() => dispatch(setOpenedCategory(expanded ? null : category.name))}
                  style={{
                    width: '100%',
                    display: 'flex',
                    justifyContent: 'space-between',
                    alignItems: 'center',
                    padding: '10px 16px',
                    border: 0,
                    background: expanded ? '#f6efe6' : 'transparent',
                    fontWeight: 600,
                    letterSpacing: 0.5,
                    cursor: 'pointer',
                    color: '#2b2420',
                    fontSize: 14,
                  }}
                >
                  {category.name}
                  {expanded ? <DownOutlined /> : <RightOutlined />}
                </button>
                {expanded ? (
                  <ul style={{ listStyle: 'none', margin: 0, padding: '4px 0' }}>
                    {category.subcategories.map((sub) => {
                      const active = activeSubCategory === sub.name;
                      return (
                        <li key={sub.id}>
                          <Link
                            to={inventoryPath(category.name, sub.name)}
                            aria-current={active ? 'page' : undefined}
                            onClick={() => {
                              dispatch(setActiveSubCategory(sub.name));
                              if (small) dispatch(setSideNavVisible(false));
                            }}
                            style={{
                              display: 'block',
                              padding: '8px 16px 8px 32px',
                              color: active ? '#fff' : '#4a3f38',
                              background: active ? '#8a5a44' : 'transparent',
                              textDecoration: 'none',
                            }}
                          >
                            {sub.name}
                          </Link>
                        </li>
                      );
                    })}
                  </ul>
                ) : null}
              </li>
            );
          })}
        </ul>
      </nav>
    </div>
  );
}
