/** The acceptance settings screen's words (issue 30 "The shop's settings"). */
export const SETTINGS_TEXTS = {
  title: 'Acceptance settings',
  intro:
    'What customers sign and authorise when they accept an estimate online, and how long they may do so after it is sent.',
  loading: 'Loading the settings',
  loadError: 'An error occurred while fetching the settings',
  deposit: 'Deposit',
  depositPercent: 'A percentage of the order total',
  depositAmount: 'A fixed amount',
  depositNone: 'No deposit',
  percent: 'Deposit percentage',
  amount: 'Deposit amount (dollars)',
  validityDays: 'Days an estimate can be accepted after it is sent',
  agreementText: 'Rental agreement',
  version: (v: number) => `Current agreement: version ${v}.`,
  versionNote: 'A changed text becomes the next version; it applies to estimates sent after it.',
  save: 'Save',
  saved: 'The acceptance settings have been saved.',
  saveError: 'There was an error while saving the settings',
  readOnly: 'Only the superadmin can change these settings.',
  required: 'This field is required',
} as const;
