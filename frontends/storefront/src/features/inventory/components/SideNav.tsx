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
import { Button, DownOutlined, Grid, Loading, MenuOutlined, RightOutlined } from '@decor/web-core/ui';
import { inventoryPath } from '../../../shared/inventory-path';

/** Spec §9: the side navigation is 250 px wide. */
export const SIDE_NAV_WIDTH = 250;

/**
 * Small screens (below antd's md, 768 px) get the toggle and a closable panel; larger ones the fixed
 * column. Media queries rather than a breakpoint hook: the server renders the page (issue 17) without
 * knowing the screen, and the markup must be the same on every screen, or the column would jump
 * into place when the page hydrates on a desktop.
 */
const SIDE_NAV_CSS = `.side-nav{flex:0 0 auto;width:100%}
.side-nav .side-nav-toggle{margin:12px 12px 0}
.side-nav>nav{display:none;width:auto;background:#fff;margin:12px;border-radius:8px;padding:12px 0;box-sizing:border-box}
.side-nav>nav.open{display:block}
@media (min-width:768px){.side-nav{flex:0 0 ${SIDE_NAV_WIDTH}px;width:${SIDE_NAV_WIDTH}px}
.side-nav .side-nav-toggle{display:none}
.side-nav>nav,.side-nav>nav.open{display:block;width:${SIDE_NAV_WIDTH}px;border-right:1px solid #eee4d8;margin:0;border-radius:0;min-height:100%}}`;

/**
 * Categories with expandable subcategories (spec §2): the active one highlighted, opened from the URL,
 * a toggle on small screens.
 */
export function SideNav() {
  const dispatch = useAppDispatch();
  // Only for what a click does: rendering never depends on the screen (SIDE_NAV_CSS).
  const screens = Grid.useBreakpoint();
  const small = !screens.md;
  const { categories, openedCategory, activeSubCategory, loading, visible, doNotShowSideNav } =
    useAppSelector((s) => s.sideNav);
  const staff = useAppSelector((s) => isStaff(s.session.user?.permissions));
  if (doNotShowSideNav) return null;
  const shown = categories.filter((c) => staff || c.name !== 'Warehouse');

  return (
    <div className="side-nav">
      <style>{SIDE_NAV_CSS}</style>
      <Button
        className="side-nav-toggle"
        icon={<MenuOutlined />}
        onClick={() => dispatch(toggleSideNav())}
        aria-expanded={visible}
        aria-controls="side-nav"
      >
        Categories
      </Button>
      <nav id="side-nav" aria-label="Inventory categories" className={visible ? 'open' : undefined}>
        {loading && shown.length === 0 ? (
          <Loading label="Loading the categories" style={{ margin: 16 }} />
        ) : null}
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
