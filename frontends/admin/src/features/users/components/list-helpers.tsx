import { useBottomSentinel } from '@decor/web-core';
import { Alert, Button, Flex, Loading } from '@decor/web-core/ui';
import { Input } from '@decor/web-core/ui-forms';
import { USERS_TEXTS } from '../texts';

// The search delay and debounce are web-core's (the order screen's quick add uses them too).
export { SEARCH_DELAY_MS, useDebounced } from '@decor/web-core';

/** A labelled prefix-search box. */
export function SearchBox({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
}) {
  return (
    <Input.Search
      aria-label={label}
      placeholder={label}
      allowClear
      value={value}
      onChange={(e) => onChange(e.target.value)}
      style={{ maxWidth: 360, marginBottom: 16 }}
    />
  );
}

interface MoreProps {
  hasNextPage: boolean;
  isFetching: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

/**
 * Infinite scroll (spec §9: 20 at first, more on scroll): an invisible sentinel at the list's end
 * asks the next page when it scrolls into view, and a Load more button does the same by hand.
 */
export function MoreRows({ hasNextPage, isFetching, isFetchingNextPage, fetchNextPage }: MoreProps) {
  const sentinel = useBottomSentinel(() => void fetchNextPage(), hasNextPage && !isFetching);
  return (
    <>
      <div ref={sentinel} data-testid="list-bottom" style={{ height: 1 }} />
      {hasNextPage ? (
        <Flex justify="center" style={{ marginTop: 16 }}>
          <Button onClick={() => void fetchNextPage()} loading={isFetchingNextPage}>
            {USERS_TEXTS.loadMore}
          </Button>
        </Flex>
      ) : null}
    </>
  );
}

/** The list's loading, error and empty states (spec §8 texts). */
export function ListState({
  isLoading,
  isError,
  empty,
  errorMessage,
}: {
  isLoading: boolean;
  isError: boolean;
  empty: boolean;
  errorMessage: string;
}) {
  if (isError)
    return <Alert type="error" showIcon role="alert" title={errorMessage} style={{ marginBottom: 16 }} />;
  if (isLoading) return <Loading label="Loading" size="large" style={{ display: 'block', margin: 48 }} />;
  if (empty) return <p>{USERS_TEXTS.nothingFound}</p>;
  return null;
}
