import { QboSessionBanner } from '@decor/web-core';
import { Alert, Button, Flex, Spin } from '@decor/web-core/ui';
import { Checkbox } from '@decor/web-core/ui-data';
import { Modal, Typography } from '@decor/web-core/ui-forms';
import { useEffect, useRef, useState } from 'react';
import type { NewCompany, NewUser, QboCompany, QboCustomer } from '../api/types';
import { useCreateCompanyMutation, useCreateUserMutation, useGetQboUsersQuery } from '../api/users-api';
import { errorText, isQboExpired, USERS_TEXTS } from '../texts';

/**
 * Why an entry cannot be imported (spec §5), or null when it can: the server's words when it says
 * so, else the rules applied here — a customer needs an e-mail and a parent company on the site, a
 * company needs a name.
 */
export function companyBlock(company: QboCompany): string | null {
  if (company.selectable === false) return company.reason ?? USERS_TEXTS.importAlready;
  if (company.onSite) return USERS_TEXTS.importAlready;
  if (!company.name?.trim()) return USERS_TEXTS.importNoName;
  return null;
}

export function customerBlock(customer: QboCustomer): string | null {
  if (customer.selectable === false) return customer.reason ?? USERS_TEXTS.importAlready;
  if (customer.onSite) return USERS_TEXTS.importAlready;
  if (!customer.email?.trim()) return USERS_TEXTS.importNoEmail;
  if (!customer.parentSiteId) return USERS_TEXTS.importParentFirst;
  return null;
}

const given = <K extends string>(key: K, value: string | null | undefined) =>
  value?.trim() ? ({ [key]: value.trim() } as Record<K, string>) : {};

/** POST /company for an imported company: its QuickBooks fields and id (adopted, not created again). */
export function importedCompanyBody(company: QboCompany): NewCompany {
  const name = (company.name ?? '').trim();
  return {
    name,
    displayName: name,
    ...given('street', company.street),
    ...given('city', company.city),
    ...given('state', company.state),
    ...given('zipCode', company.zipCode),
    ...given('phone', company.phone),
    qboId: company.qboId,
  };
}

/** POST /user for an imported customer, under its parent company on the site. */
export function importedCustomerBody(customer: QboCustomer, sendWelcomeEmail: boolean): NewUser {
  return {
    permissions: 'customer',
    CompanyId: customer.parentSiteId ?? '',
    ...given('ownCompany', customer.company ?? customer.parentName),
    ...given('displayName', customer.displayName),
    email: (customer.email ?? '').trim(),
    firstName: customer.firstName?.trim() ?? '',
    lastName: customer.lastName?.trim() ?? '',
    ...given('phone', customer.phone),
    qboId: customer.qboId,
    sendWelcomeEmail,
  };
}

/** When to ask GET /qbo/users again after an import (what is on the site now, and its customers' parents). */
export const RELIST_AFTER_MS = 2000;

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

function ImportBody({ onClose }: { onClose: () => void }) {
  // Asked each time the dialog opens (spec §2: loads the accounting users when opened).
  const listing = useGetQboUsersQuery(undefined, { refetchOnMountOrArgChange: true });
  const [createUser] = useCreateUserMutation();
  const [createCompany] = useCreateCompanyMutation();
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [failures, setFailures] = useState<string[]>([]);
  const [added, setAdded] = useState(false);
  const [sendWelcome, setSendWelcome] = useState(false);
  // QuickBooks' side learns the new site records from their events a moment later: ask again then.
  const later = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(later.current), []);

  const companies = listing.data?.companies ?? [];
  const customers = listing.data?.customers ?? [];
  const tick = (key: string, on: boolean) =>
    setTicked((before) => {
      const next = new Set(before);
      if (on) next.add(key);
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
    // Companies first: a customer's parent must be on the site before it.
    for (const company of companies.filter((c) => ticked.has(`company-${c.qboId}`))) {
      await attempt(company.email ?? company.displayName, () =>
        createCompany(importedCompanyBody(company)).unwrap(),
      );
    }
    for (const customer of customers.filter((c) => ticked.has(`customer-${c.qboId}`))) {
      await attempt(customer.email ?? customer.displayName, () =>
        createUser(importedCustomerBody(customer, sendWelcome)).unwrap(),
      );
    }
    setBusy(false);
    setFailures(problems);
    setAdded(problems.length === 0);
    setTicked(new Set());
    void listing.refetch();
    clearTimeout(later.current);
    later.current = setTimeout(() => void listing.refetch(), RELIST_AFTER_MS);
  };

  if (listing.isLoading) {
    return (
      <Spin aria-label={USERS_TEXTS.importLoading} size="large" style={{ display: 'block', margin: 32 }} />
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
      {listing.data ? (
        <div style={{ maxHeight: '55vh', overflowY: 'auto', marginBottom: 16 }}>
          <Typography.Title level={5}>{USERS_TEXTS.companies}</Typography.Title>
          {companies.length === 0 ? <p>{USERS_TEXTS.nothingFound}</p> : null}
          <ul aria-label={USERS_TEXTS.companies} style={{ padding: 0 }}>
            {companies.map((c) => (
              <Entry
                key={c.qboId}
                id={`import-company-${c.qboId}`}
                label={c.displayName}
                detail={c.email}
                block={companyBlock(c)}
                checked={ticked.has(`company-${c.qboId}`)}
                onChange={(on) => tick(`company-${c.qboId}`, on)}
              />
            ))}
          </ul>
          <Typography.Title level={5}>{USERS_TEXTS.customers}</Typography.Title>
          {customers.length === 0 ? <p>{USERS_TEXTS.nothingFound}</p> : null}
          <ul aria-label={USERS_TEXTS.customers} style={{ padding: 0 }}>
            {customers.map((c) => (
              <Entry
                key={c.qboId}
                id={`import-customer-${c.qboId}`}
                label={c.displayName}
                detail={[c.email, c.parentName ?? c.company].filter(Boolean).join(', ') || null}
                block={customerBlock(c)}
                checked={ticked.has(`customer-${c.qboId}`)}
                onChange={(on) => tick(`customer-${c.qboId}`, on)}
              />
            ))}
          </ul>
        </div>
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
      <Flex justify="flex-end" gap={8}>
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

/** The import dialog (spec §2, §4, §5, §8): QuickBooks companies and customers to tick and import. */
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
