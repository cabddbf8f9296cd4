import { useEffect, useRef } from 'react';
import { ACCEPT_TEXTS } from '../acceptance-texts';

/** What the provider's frame posts once the card is entered (never the card itself). */
export const PAYMENT_MESSAGE_TYPE = 'decor-payment-method';

/**
 * The frame's address with our origin, where the frame may post the payment method to, and the
 * deposit to authorise (Stripe's Payment Element is set up for it; the emulator's page ignores it).
 */
export function paymentFrameSrc(
  frameUrl: string,
  origin: string,
  deposit: { amountCents: number; currency: string },
): string {
  const url = new URL(frameUrl, origin);
  url.searchParams.set('origin', origin);
  url.searchParams.set('amount', String(deposit.amountCents));
  url.searchParams.set('currency', deposit.currency.toLowerCase());
  return url.toString();
}

/**
 * The payment provider's own card entry (Stripe's Payment Element, or the local emulator's page):
 * card details stay in that frame, and we take only the payment-method id it posts — from exactly
 * that frame's window and origin, nothing else that posts a message to this page.
 */
export function PaymentFrame({
  frameUrl,
  deposit,
  onPaymentMethod,
}: {
  frameUrl: string;
  deposit: { amountCents: number; currency: string };
  onPaymentMethod: (id: string) => void;
}) {
  const frame = useRef<HTMLIFrameElement>(null);
  const report = useRef(onPaymentMethod);
  report.current = onPaymentMethod;
  const src = paymentFrameSrc(frameUrl, window.location.origin, deposit);
  const frameOrigin = new URL(src).origin;

  useEffect(() => {
    const listen = (event: MessageEvent) => {
      if (event.origin !== frameOrigin || event.source !== frame.current?.contentWindow) return;
      const data = event.data as { type?: unknown; paymentMethod?: unknown } | null;
      if (data?.type !== PAYMENT_MESSAGE_TYPE || typeof data.paymentMethod !== 'string') return;
      if (data.paymentMethod.startsWith('pm_')) report.current(data.paymentMethod);
    };
    window.addEventListener('message', listen);
    return () => window.removeEventListener('message', listen);
  }, [frameOrigin]);

  return (
    <iframe
      ref={frame}
      src={src}
      title={ACCEPT_TEXTS.cardFrame}
      style={{ width: '100%', maxWidth: 480, height: 380, border: '1px solid #d9cbbb', borderRadius: 8 }}
    />
  );
}
