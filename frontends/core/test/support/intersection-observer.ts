/** jsdom has no IntersectionObserver: this one lets a test say "the page bottom is in view". */
export function installIntersectionObserver() {
  const observers = new Set<{ callback: IntersectionObserverCallback; nodes: Set<Element> }>();
  class FakeObserver {
    private entry: { callback: IntersectionObserverCallback; nodes: Set<Element> };
    constructor(callback: IntersectionObserverCallback) {
      this.entry = { callback, nodes: new Set() };
      observers.add(this.entry);
    }
    observe(node: Element) {
      this.entry.nodes.add(node);
    }
    unobserve(node: Element) {
      this.entry.nodes.delete(node);
    }
    disconnect() {
      observers.delete(this.entry);
    }
    takeRecords() {
      return [];
    }
  }
  Object.assign(window, { IntersectionObserver: FakeObserver });
  return {
    /** Scrolls the page bottom into view: every observed node intersects. */
    reachBottom() {
      for (const { callback, nodes } of [...observers]) {
        callback(
          [...nodes].map(
            (target) => ({ target, isIntersecting: true }) as unknown as IntersectionObserverEntry,
          ),
          {} as IntersectionObserver,
        );
      }
    },
    /** How many nodes are watched now (a list watches its bottom only while it can load more). */
    watched(): number {
      return [...observers].reduce((n, { nodes }) => n + nodes.size, 0);
    },
    uninstall() {
      delete (window as { IntersectionObserver?: unknown }).IntersectionObserver;
    },
  };
}
