import { type ShortLine, shortLineText } from '@decor/contracts/rules';

/**
 * The lines an availability 409 names (spec's 'Only N … are available on …'), each with what was
 * asked: staff's overbook confirmation and the extension of a lapsed offer show them alike.
 */
export function ShortLines({ lines }: { lines: readonly ShortLine[] }) {
  return (
    <ul style={{ margin: '4px 0 0' }}>
      {lines.map((line) => (
        <li key={`${line.productId}:${line.day}`}>
          {shortLineText(line.available, line.name, line.day)} ({line.requested} asked)
        </li>
      ))}
    </ul>
  );
}
