import { Alert, Button } from '@decor/web-core/ui';
import { Component, type ErrorInfo, lazy, type ReactNode, Suspense, useMemo, useState } from 'react';
import { loadedScreen, loadScreen, type RemoteName } from '../remotes';
import { PageLoader } from './PageLoader';

export const AREA_ERROR_TITLE = 'This part of the site is not available right now';
export const AREA_ERROR_TEXT = 'Please try again in a moment. The rest of the site still works.';

interface BoundaryProps {
  children: ReactNode;
  onRetry?: () => void;
}

/** Catches a remote that cannot load or crashes: a friendly message in this area only. */
export class AreaErrorBoundary extends Component<BoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('screen failed', error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <Alert
        type="warning"
        showIcon
        role="alert"
        style={{ margin: 'clamp(12px, 4vw, 48px)' }}
        title={AREA_ERROR_TITLE}
        description={AREA_ERROR_TEXT}
        action={
          this.props.onRetry ? (
            <Button
              type="primary"
              onClick={() => {
                this.setState({ failed: false });
                this.props.onRetry?.();
              }}
            >
              Try again
            </Button>
          ) : null
        }
      />
    );
  }
}

/** One exposed screen of a remote, loaded when first rendered. */
export function RemoteScreen({ remote, module }: { remote: RemoteName; module: string }) {
  const [attempt, setAttempt] = useState(0);
  // A new lazy component per attempt: React keeps a failed lazy() failed.
  // `attempt` forces a fresh load.
  // A screen loaded ahead (hydrating a server-rendered page) renders at once.
  const Screen = useMemo(
    () =>
      (attempt === 0 ? loadedScreen(remote, module) : undefined) ?? lazy(() => loadScreen(remote, module)),
    [remote, module, attempt],
  );
  return (
    <AreaErrorBoundary key={attempt} onRetry={() => setAttempt((n) => n + 1)}>
      <Suspense fallback={<PageLoader />}>
        <Screen />
      </Suspense>
    </AreaErrorBoundary>
  );
}
