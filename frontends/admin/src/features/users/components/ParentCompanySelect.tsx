import { Select } from '@decor/web-core/ui-forms';
import { useState } from 'react';
import type { Company } from '../api/types';
import { useFindCompaniesQuery } from '../api/users-api';
import { USERS_TEXTS } from '../texts';
import { useDebounced } from './list-helpers';

/**
 * The customer form's parent company: a search over the site's companies (name prefix, 20 shown).
 * Controlled by the Form.Item around it (value = the company's id); `onPicked` hands over the record.
 */
export function ParentCompanySelect({
  id,
  value,
  onChange,
  onPicked,
}: {
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
  onPicked?: (company: Company) => void;
}) {
  const [typed, setTyped] = useState('');
  const search = useDebounced(typed);
  const { data, isFetching } = useFindCompaniesQuery(search);
  const companies = data ?? [];
  return (
    <Select<string>
      id={id}
      showSearch={{ filterOption: false, onSearch: setTyped }}
      value={value}
      // No placeholder: antd's is a real element in a light grey below the contrast minimum.
      loading={isFetching}
      notFoundContent={isFetching ? null : USERS_TEXTS.nothingFound}
      options={companies.map((c) => ({ value: c.id, label: c.displayName || c.name }))}
      onChange={(picked) => {
        onChange?.(picked);
        const company = companies.find((c) => c.id === picked);
        if (company) onPicked?.(company);
      }}
    />
  );
}
