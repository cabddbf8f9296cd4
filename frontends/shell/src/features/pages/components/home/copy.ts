/** The words of the home page. */

export const SLIDE_COPY = [
  {
    title: 'Decor that makes the evening',
    text: 'Bars, lounges, lighting and linens for weddings, galas and gatherings.',
  },
  {
    title: 'Raise a glass in style',
    text: 'Illuminated bar fronts and back bars, delivered and set before your first guest arrives.',
  },
  {
    title: 'Light that sets the mood',
    text: 'Chandeliers, candlelight and uplighting that turn any room into a celebration.',
  },
  {
    title: 'Every table, dressed',
    text: 'Tablecloths, napkins and centerpieces in colours that suit your day.',
  },
];

export const ABOUT_US =
  'Gala & Grove began in a borrowed barn with two dozen chairs, a handful of lanterns and a promise to ' +
  'treat every event as if it were our own. Fifteen years later our warehouse holds thousands of pieces, ' +
  'but the promise has not changed: we help planners, venues and families create rooms people remember, ' +
  'and we are there from the first sketch to the last strike.';

export const FOUNDERS = [
  {
    name: 'Maya Linden',
    role: 'Co-founder, Design',
    bio:
      'Maya spent a decade styling weddings before she started buying the pieces she could never find to rent. ' +
      'She still walks every new venue with our clients and has an eye for the one detail that ties a room together.',
  },
  {
    name: 'Daniel Okafor',
    role: 'Co-founder, Operations',
    bio:
      'Daniel ran logistics for touring productions and brought that precision to our trucks and crews. ' +
      'If your load-in is at dawn and your strike is after midnight, Daniel has already planned both.',
  },
];

export const APART = [
  {
    title: 'Quality',
    text:
      'Every piece is inspected, cleaned and repaired between events. What arrives at your venue looks the way it ' +
      'does in our gallery, down to the last polished glass shelf.',
  },
  {
    title: 'The Industry Choice',
    text:
      'Planners, caterers and hotels across the region rely on us for their busiest weekends, because our ' +
      'inventory is deep and our crews are on time.',
  },
  {
    title: 'Service',
    text:
      'One coordinator follows your order from estimate to strike. Call or e-mail us any time: a real person who ' +
      'knows your event will answer.',
  },
];

export const CONTACT_INVITE =
  'Tell us about your date, your venue and what you have in mind: a coordinator answers every message by e-mail.';
