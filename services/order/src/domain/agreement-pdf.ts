/**
 * The signed agreement of one acceptance as a PDF (issue 30): the agreement text of its version, the
 * estimate exactly as accepted (the record's canonical content), the typed name and the drawn
 * signature, the time, the IP and the SHA-256 digests that tie it to the record. Made from the stored
 * record only, with its dates fixed to the acceptance's, so the same record makes the same document.
 */
import { toDollars } from '@decor/contracts';
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import type { AcceptanceRecord } from './acceptance';

export interface AgreementInput {
  record: AcceptanceRecord;
  agreementText: string;
  /** The drawn signature's PNG bytes (null: only the typed name). */
  signaturePng: Buffer | null;
  companyName: string;
}

type Line = [productId: string, name: string, description: string, qty: number, price: number, total: number];
interface Content {
  docNumber: string;
  lines: Line[];
  subtotalCents: number;
  truckingCents: number;
  taxCents: number;
  totalCents: number;
  details: Record<string, string>;
}

const MARGIN = 50;
const SIZE: [number, number] = [612, 792]; // US Letter

/** The standard fonts speak WinAnsi only: anything else prints as '?' rather than failing the job. */
const printable = (text: string) => text.replace(/[^\x20-\x7E\xA0-\xFF]/g, '?');
const money = (cents: number) => `$${toDollars(cents).toFixed(2)}`;

/** Draws text top-down, wrapping lines and adding pages as it goes. */
class Writer {
  page: PDFPage;
  y: number;
  constructor(
    private readonly doc: PDFDocument,
    private readonly font: PDFFont,
    private readonly bold: PDFFont,
  ) {
    this.page = doc.addPage(SIZE);
    this.y = SIZE[1] - MARGIN;
  }

  space(height: number) {
    if (this.y - height < MARGIN) {
      this.page = this.doc.addPage(SIZE);
      this.y = SIZE[1] - MARGIN;
    }
  }

  text(raw: string, opts: { size?: number; bold?: boolean } = {}) {
    const size = opts.size ?? 10;
    const font = opts.bold ? this.bold : this.font;
    const width = SIZE[0] - 2 * MARGIN;
    for (const paragraph of printable(raw.replace(/\r/g, '').replace(/\t/g, ' ')).split('\n')) {
      let line = '';
      const flush = () => {
        this.space(size + 4);
        this.page.drawText(line, { x: MARGIN, y: this.y - size, size, font, color: rgb(0, 0, 0) });
        this.y -= size + 4;
        line = '';
      };
      for (const word of paragraph.split(' ')) {
        const next = line ? `${line} ${word}` : word;
        if (font.widthOfTextAtSize(next, size) > width && line) {
          flush();
          line = word;
        } else line = next;
      }
      flush();
    }
  }

  gap(height = 8) {
    this.y -= height;
  }
}

export async function agreementPdf(input: AgreementInput): Promise<Uint8Array> {
  const { record } = input;
  const content = JSON.parse(record.content) as Content;
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setTitle(`Rental agreement, estimate #${content.docNumber}`);
  doc.setAuthor(printable(input.companyName));
  doc.setCreationDate(record.at);
  doc.setModificationDate(record.at);
  const w = new Writer(
    doc,
    await doc.embedFont(StandardFonts.Helvetica),
    await doc.embedFont(StandardFonts.HelveticaBold),
  );

  w.text(`${input.companyName}: rental agreement`, { size: 16, bold: true });
  w.text(`Estimate #${content.docNumber}, agreement version ${record.agreementVersion}`, { size: 11 });
  w.gap();
  w.text('The agreement', { size: 12, bold: true });
  w.text(input.agreementText);
  w.gap();
  w.text('The estimate as accepted', { size: 12, bold: true });
  for (const [, name, description, qty, price, total] of content.lines)
    w.text(`${qty} x ${name}${description ? ` (${description})` : ''} at ${money(price)}: ${money(total)}`);
  w.text(`Subtotal: ${money(content.subtotalCents)}`);
  w.text(`Trucking fee: ${money(content.truckingCents)}`);
  w.text(`Tax: ${money(content.taxCents)}`);
  w.text(`Total: ${money(content.totalCents)}`, { bold: true });
  const details = Object.entries(content.details);
  if (details.length > 0) {
    w.gap();
    w.text('Event details and dates', { size: 12, bold: true });
    for (const [field, value] of details) w.text(`${field}: ${value}`);
  }
  w.gap();
  w.text('Signed', { size: 12, bold: true });
  w.text(`Typed name: ${record.signerName}`);
  if (input.signaturePng) {
    const image = await doc.embedPng(input.signaturePng);
    const scaled = image.scaleToFit(240, 90);
    w.space(scaled.height + 8);
    w.page.drawImage(image, { x: MARGIN, y: w.y - scaled.height, ...scaled });
    w.y -= scaled.height + 8;
  }
  w.text(`Signed at: ${record.at.toISOString()}`);
  w.text(`From IP address: ${record.ip}`);
  w.text(`User agent: ${record.userAgent}`);
  w.gap();
  w.text('Digests (SHA-256)', { size: 12, bold: true });
  w.text(`Estimate content: ${record.estimateVersion}`, { size: 8 });
  w.text(`Agreement text: ${record.agreementSha256}`, { size: 8 });
  w.text(`Signature image: ${record.signatureSha256}`, { size: 8 });
  return doc.save();
}
