import type { OrderChange } from '@decor/contracts/rules';
import { API_BASE_URL, http, useAppDispatch, useAppSelector } from '@decor/web-core';
import { useEffect } from 'react';
import { ordersApi } from './orders-api';

const RECONNECT_MS = 3000;
/** Changes arriving together refetch once. */
const BATCH_MS = 150;

/**
 * Live status (issue: "sees changes made elsewhere without reloading"): while an order screen is
 * open, the gateway's Server-Sent Events about the orders this viewer may see refetch the affected
 * queries. EventSource cannot send our Authorization header, so each connection first asks for a
 * one-use ticket; on an error it reconnects with a new ticket and the last event id (the gateway
 * resumes from there, or says `resync`: refetch everything shown).
 */
export function useLiveOrders(): void {
  const dispatch = useAppDispatch();
  const signedIn = useAppSelector((s) => Boolean(s.session.token));

  useEffect(() => {
    if (!signedIn || typeof EventSource === 'undefined') return;
    let source: EventSource | undefined;
    let lastEventId = '';
    let stopped = false;
    let reconnect: ReturnType<typeof setTimeout> | undefined;
    let flush: ReturnType<typeof setTimeout> | undefined;
    const pending = new Set<string>();
    let everything = false;

    const refetch = () => {
      flush = undefined;
      type Tags = Parameters<typeof ordersApi.util.invalidateTags>[0];
      const tags: Tags = everything
        ? ['Order', 'OrderList']
        : [...[...pending].map((id) => ({ type: 'Order' as const, id })), { type: 'OrderList', id: 'LIST' }];
      pending.clear();
      everything = false;
      dispatch(ordersApi.util.invalidateTags(tags));
    };
    const soon = () => {
      flush ??= setTimeout(refetch, BATCH_MS);
    };
    const retry = () => {
      source?.close();
      if (!stopped) reconnect = setTimeout(() => void open(), RECONNECT_MS);
    };

    async function open() {
      let ticket: string;
      try {
        ticket = (await http.post<{ result: { ticket: string } }>('/orders/events/ticket')).data.result
          .ticket;
      } catch {
        return retry();
      }
      if (stopped) return;
      const resume = lastEventId ? `&lastEventId=${encodeURIComponent(lastEventId)}` : '';
      source = new EventSource(`${API_BASE_URL}/orders/events?ticket=${encodeURIComponent(ticket)}${resume}`);
      source.addEventListener('ready', (e) => {
        lastEventId = (e as MessageEvent).lastEventId || lastEventId;
      });
      source.addEventListener('order', (e) => {
        const message = e as MessageEvent<string>;
        lastEventId = message.lastEventId || lastEventId;
        const change = JSON.parse(message.data) as OrderChange;
        pending.add(`${change.orderType}:${change.id}`);
        soon();
      });
      source.addEventListener('resync', () => {
        everything = true;
        soon();
      });
      // A ticket works once: EventSource's own reconnect would be refused, so we reconnect ourselves.
      source.onerror = retry;
    }

    void open();
    return () => {
      stopped = true;
      source?.close();
      clearTimeout(reconnect);
      clearTimeout(flush);
    };
  }, [signedIn, dispatch]);
}
