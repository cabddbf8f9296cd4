/**
 * Spec §5's import rules as texts: why an entry of the Import User dialog cannot be ticked.
 * accounting-sync marks each entry with them (`reason`); the dialog shows the same words when it
 * applies the rules itself. Browser-safe.
 */
export const IMPORT_TEXTS = {
  onSite: 'Already on the site',
  companyWithoutName: 'This company has no company name. Please update it in QuickBooks.',
  customerWithoutEmail: 'This user has no e-mail address. Please update the user in QuickBooks.',
  parentNotOnSite: 'Please import the parent company first',
} as const;
