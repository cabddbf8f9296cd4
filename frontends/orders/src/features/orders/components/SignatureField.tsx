import { Button, Flex } from '@decor/web-core/ui';
import { useEffect, useRef, useState } from 'react';
import SignaturePad from 'signature_pad';
import { ACCEPT_TEXTS } from '../acceptance-texts';

const WIDTH = 480;
const HEIGHT = 160;
/** Sharp on dense screens, yet the PNG stays far below the API's 400 kB limit. */
const MAX_RATIO = 2;

/**
 * The canvas sized to its shown width (narrower on a phone) and the screen's pixel density; drawing
 * coordinates stay in CSS pixels, as signature_pad reads the pointer.
 */
function sizeCanvas(canvas: HTMLCanvasElement): { context: CanvasRenderingContext2D | null; width: number } {
  const ratio = Math.min(Math.max(window.devicePixelRatio || 1, 1), MAX_RATIO);
  const width = canvas.offsetWidth || WIDTH;
  canvas.width = width * ratio;
  canvas.height = HEIGHT * ratio;
  const context = canvas.getContext('2d');
  context?.scale(ratio, ratio);
  return { context, width };
}

/** The typed name drawn in a handwriting face, as a PNG data URL (the keyboard's signature). */
export function typedSignature(canvas: HTMLCanvasElement, name: string): string | null {
  const { context, width } = sizeCanvas(canvas);
  if (!context || !name.trim()) return null;
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, HEIGHT);
  context.fillStyle = '#1f1a17';
  context.font = 'italic 40px "Segoe Script", "Brush Script MT", cursive';
  context.textBaseline = 'middle';
  context.fillText(name.trim(), 16, HEIGHT / 2, width - 32);
  return canvas.toDataURL('image/png');
}

/**
 * A drawn signature (signature_pad: pointer, pen or touch) or, for keyboard users, the typed full
 * name rendered as one. `onChange` gets the PNG data URL, or null while there is none.
 */
export function SignatureField({
  name,
  onChange,
}: {
  name: string;
  onChange: (signature: string | null) => void;
}) {
  const [typed, setTyped] = useState(false);
  const canvas = useRef<HTMLCanvasElement>(null);
  const pad = useRef<SignaturePad | null>(null);
  const report = useRef(onChange);
  report.current = onChange;

  useEffect(() => {
    const element = canvas.current;
    if (typed || !element) return;
    sizeCanvas(element);
    let drawn: SignaturePad;
    try {
      drawn = new SignaturePad(element, { backgroundColor: 'rgb(255, 255, 255)', penColor: '#1f1a17' });
    } catch {
      return; // No 2D canvas (a very old browser): typing stays available.
    }
    pad.current = drawn;
    drawn.addEventListener('endStroke', () => report.current(drawn.isEmpty() ? null : drawn.toDataURL()));
    report.current(null);
    return () => {
      drawn.off();
      pad.current = null;
    };
  }, [typed]);

  useEffect(() => {
    if (!typed || !canvas.current) return;
    report.current(typedSignature(canvas.current, name));
  }, [typed, name]);

  const clear = () => {
    pad.current?.clear();
    report.current(null);
  };

  return (
    <div>
      <canvas
        ref={canvas}
        role="img"
        aria-label={typed ? ACCEPT_TEXTS.typedPreview : ACCEPT_TEXTS.pad}
        data-testid="signature-pad"
        style={{
          width: WIDTH,
          maxWidth: '100%',
          height: HEIGHT,
          border: '1px solid #d9cbbb',
          borderRadius: 8,
          background: '#fff',
          touchAction: 'none',
          display: 'block',
        }}
      />
      <Flex gap={8} wrap style={{ marginTop: 8 }}>
        {typed ? null : <Button onClick={clear}>{ACCEPT_TEXTS.clear}</Button>}
        <Button type="link" onClick={() => setTyped((t) => !t)} aria-pressed={typed}>
          {ACCEPT_TEXTS.typeInstead}
        </Button>
      </Flex>
    </div>
  );
}
