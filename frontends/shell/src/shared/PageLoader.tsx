import { Flex, Spin } from '@decor/web-core/ui';

export function PageLoader() {
  return (
    <Flex align="center" justify="center" style={{ minHeight: 240 }} role="status" aria-label="Loading">
      <Spin size="large" />
    </Flex>
  );
}
