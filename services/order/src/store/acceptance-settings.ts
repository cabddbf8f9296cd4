import {
  ACCEPTANCE_DEFAULTS,
  type AcceptanceSettings,
  type AcceptanceSettingsChange,
  DEFAULT_AGREEMENT_TEXT,
} from '@decor/contracts';
import { conflict } from '@decor/kit';
import { type Connection, type Model, Schema } from 'mongoose';
import { sha256 } from '../domain/acceptance';
import { duplicateKeyField } from './writes';

/**
 * The shop's acceptance settings (issue 30): one document, and every agreement text ever in force by
 * its version (an accepted estimate names the version it was signed under; it is never rewritten).
 */
interface SettingsDoc {
  _id: string;
  depositPercent?: number | null;
  depositAmount?: number | null;
  validityDays: number;
  agreementVersion: number;
  /** The text in force (agreements are keyed by version and hash: a lost PUT's text is never in force). */
  agreementSha256: string;
  /** +1 per change: guards the PUT against a concurrent one. */
  revision: number;
}

interface AgreementDoc {
  /** `<version>:<sha256>` */
  _id: string;
  version: number;
  text: string;
  sha256: string;
  createdAt: Date;
}

/** The settings' defaults stand until the first PUT (agreement version 1: the terms page's text). */
export type SettingsModel = Model<SettingsDoc>;
export type AgreementModel = Model<AgreementDoc>;

export function settingsModels(connection: Connection): {
  settings: SettingsModel;
  agreements: AgreementModel;
} {
  const settings = new Schema<SettingsDoc>(
    {
      _id: String,
      depositPercent: { type: Number, default: null },
      depositAmount: { type: Number, default: null },
      validityDays: Number,
      agreementVersion: Number,
      agreementSha256: String,
      revision: Number,
    },
    { versionKey: false },
  );
  const agreements = new Schema<AgreementDoc>(
    { _id: String, version: Number, text: String, sha256: String, createdAt: Date },
    { versionKey: false },
  );
  return {
    settings: connection.model<SettingsDoc>('AcceptanceSettings', settings, 'settings'),
    agreements: connection.model<AgreementDoc>('Agreement', agreements, 'agreements'),
  };
}

export interface SettingsStore {
  settings: SettingsModel;
  agreements: AgreementModel;
}

const DOC_ID = 'acceptance';
const DEFAULT_SHA256 = sha256(DEFAULT_AGREEMENT_TEXT);

/** The defaults, as the first version (the terms page's text). */
const FIRST: SettingsDoc = {
  _id: DOC_ID,
  depositPercent: ACCEPTANCE_DEFAULTS.depositPercent,
  depositAmount: null,
  validityDays: ACCEPTANCE_DEFAULTS.validityDays,
  agreementVersion: 1,
  agreementSha256: DEFAULT_SHA256,
  revision: 0,
};

async function ensureAgreement(store: SettingsStore, version: number, text: string): Promise<string> {
  const hash = sha256(text);
  try {
    await store.agreements.create({
      _id: `${version}:${hash}`,
      version,
      text,
      sha256: hash,
      createdAt: new Date(),
    });
  } catch (err) {
    if (duplicateKeyField(err) === undefined) throw err; // another request wrote it first
  }
  return hash;
}

async function readDoc(store: SettingsStore): Promise<SettingsDoc> {
  return (await store.settings.findById(DOC_ID).lean()) ?? FIRST;
}

export interface Agreement {
  version: number;
  text: string;
  sha256: string;
}

/**
 * Agreements found, per collection, by `<version>:<sha256>`. Such a document is written once and
 * never changed (its id names its text's hash), so a copy is as good as a read: every acceptance and
 * every view of one asked for it again (two reads per acceptance). Misses are not kept: the document
 * may be written a moment later (a PUT stores its text before pointing the settings at it).
 */
const agreementsFound = new WeakMap<AgreementModel, Map<string, Agreement>>();

/** The agreement in force at `version` with hash `hash` (version 1 is the default text). */
export async function agreementOf(store: SettingsStore, version: number, hash: string): Promise<Agreement> {
  // The default text's hash names the default text, whether or not a document holds it.
  if (hash === DEFAULT_SHA256) return { version, text: DEFAULT_AGREEMENT_TEXT, sha256: DEFAULT_SHA256 };
  const id = `${version}:${hash}`;
  const found = agreementsFound.get(store.agreements) ?? new Map<string, Agreement>();
  agreementsFound.set(store.agreements, found);
  const known = found.get(id);
  if (known) return known;
  const doc = await store.agreements.findById(id).lean();
  if (!doc) return { version, text: DEFAULT_AGREEMENT_TEXT, sha256: DEFAULT_SHA256 };
  const agreement = { version, text: doc.text, sha256: doc.sha256 };
  found.set(id, agreement);
  return agreement;
}

/** The settings in force and their agreement (what an estimate sent now is offered under). */
export async function settingsInForce(
  store: SettingsStore,
): Promise<{ settings: AcceptanceSettings; agreement: Agreement }> {
  const doc = await readDoc(store);
  const agreement = await agreementOf(store, doc.agreementVersion, doc.agreementSha256);
  return { settings: asSettings(doc, agreement.text), agreement };
}

const asSettings = (doc: SettingsDoc, text: string): AcceptanceSettings => ({
  ...(typeof doc.depositPercent === 'number' ? { depositPercent: doc.depositPercent } : {}),
  ...(typeof doc.depositAmount === 'number' ? { depositAmount: doc.depositAmount } : {}),
  validityDays: doc.validityDays,
  agreementText: text,
  agreementVersion: doc.agreementVersion,
});

export async function readSettings(store: SettingsStore): Promise<AcceptanceSettings> {
  return (await settingsInForce(store)).settings;
}

/**
 * Staff's change: the deposit (one of percent / amount, or neither), the validity, the agreement
 * text — a different text is a new version (stored before the settings point at it). Guarded by
 * the settings' revision: of two concurrent PUTs the second answers 409.
 */
export async function changeSettings(
  store: SettingsStore,
  change: AcceptanceSettingsChange,
): Promise<AcceptanceSettings> {
  const doc = await readDoc(store);
  const newText = sha256(change.agreementText) !== doc.agreementSha256;
  const agreementVersion = newText ? doc.agreementVersion + 1 : doc.agreementVersion;
  const agreementSha256 = newText
    ? await ensureAgreement(store, agreementVersion, change.agreementText)
    : doc.agreementSha256;
  const next: SettingsDoc = {
    _id: DOC_ID,
    depositPercent: change.depositPercent ?? null,
    depositAmount: change.depositAmount ?? null,
    validityDays: change.validityDays,
    agreementVersion,
    agreementSha256,
    revision: doc.revision + 1,
  };
  try {
    const res = await store.settings.replaceOne({ _id: DOC_ID, revision: doc.revision }, next, {
      upsert: doc.revision === 0,
    });
    if (res.matchedCount === 0 && res.upsertedCount === 0) throw conflict(SETTINGS_CHANGED);
  } catch (err) {
    if (duplicateKeyField(err) !== undefined) throw conflict(SETTINGS_CHANGED);
    throw err;
  }
  return asSettings(next, change.agreementText);
}

export const SETTINGS_CHANGED = 'The settings were changed at the same time; please reload and try again';
