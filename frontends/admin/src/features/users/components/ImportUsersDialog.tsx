import { QboSessionBanner } from '@decor/web-core';
import { Alert, Button, Flex, Loading, Spin } from '@decor/web-core/ui';
import { Checkbox } from '@decor/web-core/ui-data';
import { Modal, Typography } from '@decor/web-core/ui-forms';
import { useEffect, useRef, useState } from 'react';
import type { QboCompany, QboCustomer } from '../api/types';
import {
  USERS_PAGE_SIZE,
  useCreateCompanyMutation,
  useCreateUserMutation,
  useGetQboUsersQuery,
  useRefreshQboUsersMutation,
} from '../api/users-api';
import { errorText, isQboExpired, USERS_TEXTS } from '../texts';
import { companyBlock, customerBlock, importedCompanyBody, importedCustomerBody } from './import-rules';
import { SearchBox, useDebounced } from './list-helpers';

/** When to ask GET /qbo/users again after an import (what is on the site now, and its customers' parents). */
export const RELIST_AFTER_MS = 2000;

/** A ticked entry, kept whole: it stays ticked while staff search and page elsewhere. */
type Ticked = { kind: 'company'; entry: QboCompany } | { kind: 'customer'; entry: QboCustomer };

function Entry({
  id,
  label,
  detail,
  block,
  checked,
  onChange,
}: {
  id: string;
  label: string;
  detail: string | null;
  block: string | null;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const reasonId = `${id}-reason`;
  return (
    <li style={{ listStyle: 'none', marginBottom: 8 }}>
      <Checkbox
        id={id}
        checked={checked}
        disabled={block !== null}
        aria-describedby={block ? reasonId : undefined}
        onChange={(e) => onChange(e.target.checked)}
      >
        {label}
        {detail ? <span style={{ color: '#6b5d52' }}> ({detail})</span> : null}
      </Checkbox>
      {block ? (
        <div id={reasonId} style={{ marginLeft: 24, color: '#8a5a00' }}>
          {block}
        </div>
      ) : null}
    </li>
  );
}

/** What an entry shows beside its name, and why it cannot be ticked (null: it can). */
const describe = (t: Ticked) =>
  t.kind === 'company'
    ? { detail: t.entry.email, block: companyBlock(t.entry) }
    : {
        detail: [t.entry.email, t.entry.parentName ?? t.entry.company].filter(Boolean).join(', ') || null,
        block: customerBlock(t.entry),
      };

/** The page's companies or its customers, under their heading (nothing when the page has none). */
function Group({
  title,
  items,
  ticked,
  onTick,
}: {
  title: string;
  items: Ticked[];
  ticked: ReadonlyMap<string, Ticked>;
  onTick: (key: string, on: boolean, what: Ticked) => void;
}) {
  if (items.length === 0) return null;
  return (
    <>
      <Typography.Title level={5}>{title}</Typography.Title>
      <ul aria-label={title} style={{ padding: 0 }}>
        {items.map((t) => {
          const key = `${t.kind}-${t.entry.qboId}`;
          return (
            <Entry
              key={key}
              id={`import-${key}`}
              label={t.entry.displayName}
              {...describe(t)}
              checked={ticked.has(key)}
              onChange={(on) => onTick(key, on, t)}
            />
          );
        })}
      </ul>
    </>
  );
}

/** Previous / next over the matching entries, 20 a page, with where the page is. */
function Pager({
  offset,
  total,
  onOffset,
}: {
  offset: number;
  total: number;
  onOffset: (o: number) => void;
}) {
  if (total <= USERS_PAGE_SIZE) return null;
  return (
    <Flex align="center" justify="space-between" gap={8} style={{ marginBottom: 16 }}>
      <Button disabled={offset === 0} onClick={() => onOffset(Math.max(0, offset - USERS_PAGE_SIZE))}>
        {USERS_TEXTS.importPrevious}
      </Button>
      <span role="status">
        {USERS_TEXTS.importShowing(offset + 1, Math.min(total, offset + USERS_PAGE_SIZE), total)}
      </span>
      <Button disabled={offset + USERS_PAGE_SIZE >= total} onClick={() => onOffset(offset + USERS_PAGE_SIZE)}>
        {USERS_TEXTS.importNext}
      </Button>
    </Flex>
  );
}

function ImportBody({ onClose }: { onClose: () => void }) {
  const [typed, setTyped] = useState('');
  const search = useDebounced(typed);
  const [hideOnSite, setHideOnSite] = useState(true);
  // The page belongs to the search and filter it was chosen under: a new one starts at its first page.
  const view = `${hideOnSite}:${search}`;
  const [at, setAt] = useState({ view, offset: 0 });
  const offset = at.view === view ? at.offset : 0;
  // Asked each time the dialog opens (spec §2: loads the accounting users when opened); the server
  // searches and pages, from its recent copy of QuickBooks' list.
  const listing = useGetQboUsersQuery({ search, hideOnSite, offset }, { refetchOnMountOrArgChange: true });
  const [refresh, refreshing] = useRefreshQboUsersMutation();
  const [createUser] = useCreateUserMutation();
  const [createCompany] = useCreateCompanyMutation();
  const [ticked, setTicked] = useState<ReadonlyMap<string, Ticked>>(new Map());
  const [busy, setBusy] = useState(false);
  const [failures, setFailures] = useState<string[]>([]);
  const [added, setAdded] = useState(false);
  const [sendWelcome, setSendWelcome] = useState(false);
  // QuickBooks' side learns the new site records from their events a moment later: ask again then.
  const later = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const open = useRef(true);
  useEffect(
    () => () => {
      open.current = false;
      clearTimeout(later.current);
    },
    [],
  );

  const page = listing.data;
  const companies = page?.companies ?? [];
  const customers = page?.customers ?? [];
  const tick = (key: string, on: boolean, what: Ticked) =>
    setTicked((before) => {
      const next = new Map(before);
      if (on) next.set(key, what);
      else next.delete(key);
      return next;
    });

  const submit = async () => {
    setBusy(true);
    setFailures([]);
    setAdded(false);
    const problems: string[] = [];
    const attempt = async (who: string, call: () => Promise<unknown>) => {
      try {
        await call();
      } catch (failure) {
        // Spec §8: each failed entry as '{email}: {server message}' (an expired QuickBooks session
        // also raises its notice above, with Click here).
        problems.push(`${who}: ${errorText(failure)}`);
      }
    };
    const chosen = [...ticked.values()];
    // Companies first: a customer's parent must be on the site before it.
    for (const t of chosen) {
      if (t.kind !== 'company') continue;
      await attempt(t.entry.email ?? t.entry.displayName, () =>
        createCompany(importedCompanyBody(t.entry)).unwrap(),
      );
    }
    for (const t of chosen) {
      if (t.kind !== 'customer') continue;
      await attempt(t.entry.email ?? t.entry.displayName, () =>
        createUser(importedCustomerBody(t.entry, sendWelcome)).unwrap(),
      );
    }
    setBusy(false);
    setFailures(problems);
    setAdded(problems.length === 0);
    setTicked(new Map());
    clearTimeout(later.current);
    // Counted from the first relisting's answer: one asked while another is in flight is dropped
    // (RTK Query), and a slow first answer would otherwise swallow the later one.
    const relisted = listing.refetch();
    void relisted.then(() => {
      if (open.current) later.current = setTimeout(() => void listing.refetch(), RELIST_AFTER_MS);
    });
  };

  if (listing.isLoading) {
    return (
      <Loading label={USERS_TEXTS.importLoading} size="large" style={{ display: 'block', margin: 32 }} />
    );
  }
  return (
    <>
      {listing.error && !isQboExpired(listing.error) ? (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={errorText(listing.error)}
          style={{ marginBottom: 16 }}
        />
      ) : null}
      <SearchBox label={USERS_TEXTS.importSearch} value={typed} onChange={setTyped} />
      <Flex align="center" justify="space-between" gap={8} wrap style={{ marginBottom: 16 }}>
        <Checkbox checked={hideOnSite} onChange={(e) => setHideOnSite(e.target.checked)}>
          {USERS_TEXTS.importHideOnSite}
        </Checkbox>
        <Flex align="center" gap={8}>
          {page?.listedAt ? <span>{USERS_TEXTS.importListedAt(new Date(page.listedAt))}</span> : null}
          <Button size="small" loading={refreshing.isLoading} onClick={() => void refresh()}>
            {USERS_TEXTS.importRefresh}
          </Button>
        </Flex>
      </Flex>
      {page ? (
        <Spin spinning={listing.isFetching}>
          <div style={{ maxHeight: '50vh', overflowY: 'auto', marginBottom: 16 }}>
            {page.total === 0 ? <p>{USERS_TEXTS.nothingFound}</p> : null}
            <Group
              title={USERS_TEXTS.companies}
              items={companies.map((entry) => ({ kind: 'company', entry }))}
              ticked={ticked}
              onTick={tick}
            />
            <Group
              title={USERS_TEXTS.customers}
              items={customers.map((entry) => ({ kind: 'customer', entry }))}
              ticked={ticked}
              onTick={tick}
            />
          </div>
          <Pager offset={offset} total={page.total} onOffset={(o) => setAt({ view, offset: o })} />
        </Spin>
      ) : null}
      <Checkbox
        checked={sendWelcome}
        onChange={(e) => setSendWelcome(e.target.checked)}
        style={{ marginBottom: 16 }}
      >
        {USERS_TEXTS.importSendWelcome}
      </Checkbox>
      {added ? (
        <Alert
          type="success"
          showIcon
          role="status"
          title={USERS_TEXTS.usersAdded}
          style={{ marginBottom: 16 }}
        />
      ) : null}
      {failures.length > 0 ? (
        <Alert
          type="error"
          showIcon
          role="alert"
          style={{ marginBottom: 16 }}
          title={
            <ul style={{ margin: 0, paddingLeft: 16 }}>
              {failures.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          }
        />
      ) : null}
      <Flex justify="flex-end" align="center" gap={8}>
        {ticked.size > 0 ? <span>{USERS_TEXTS.importTicked(ticked.size)}</span> : null}
        <Button onClick={onClose} disabled={busy}>
          {USERS_TEXTS.done}
        </Button>
        <Button type="primary" disabled={ticked.size === 0} loading={busy} onClick={() => void submit()}>
          {USERS_TEXTS.importSubmit}
        </Button>
      </Flex>
    </>
  );
}

/**
 * The import dialog (spec §2, §4, §5, §8): QuickBooks companies and customers to tick and import,
 * searched by name, company or e-mail, those already on the site hidden unless asked, 20 a page.
 */
export function ImportUsersDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal
      open={open}
      title={USERS_TEXTS.importTitle}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
      width={640}
    >
      <QboSessionBanner />
      {open ? <ImportBody onClose={onClose} /> : null}
    </Modal>
  );
}
