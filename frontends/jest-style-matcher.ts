/**
 * The selector matcher jsdom's getComputedStyle uses, made fit for antd's style sheets.
 *
 * getComputedStyle matches the element against every style rule of the page (an antd screen
 * injects ~2,800 rules with ~2,600 distinct selectors), and Testing Library's *ByRole queries ask
 * it for every candidate, its ancestors and the nodes its accessible name is made of; user-event
 * asks it for every target and its ancestors. jsdom does this through one nwsapi instance, whose
 * cache of compiled selectors keeps the last 1,000: each pass over the rules evicted every selector
 * before its next use, and every call compiled them all again.
 *
 * Here the same engine runs as several instances that each see at most 500 selectors, so each is
 * compiled once; and a selector whose every alternative names a class or an element type in its
 * last compound (`.ant-btn:hover`, `:where(.css-x).ant-select .ant-select-arrow`, `:where(.css-x) a`)
 * is not asked at all of an element that has none of those: no such element can match it. What
 * matches is unchanged.
 */

type Engine = { match(selectors: string, element: Element): boolean; configure(options: object): void };
type CreateEngine = (global: { document: Document; DOMException: typeof DOMException }) => Engine;

const SELECTORS_PER_ENGINE = 500;

/**
 * For each alternative of a selector list, something its subject element must have, lower-cased:
 * a class as `.name`, else an element type as `name`; null when some alternative has neither that
 * can be read plainly (then every element is asked).
 */
export function requiredOfSubject(selectors: string): string[] | null {
  if (selectors.includes('\\')) return null;
  const required: string[] = [];
  for (const alternative of splitTopLevel(selectors)) {
    const subject = lastCompound(alternative.trim());
    if (subject === null) return null;
    const className = firstTopLevelClass(subject);
    const type = className === null && !subject.includes('|') ? TYPE_NAME.exec(subject)?.[0] : undefined;
    if (className !== null) required.push(`.${className.toLowerCase()}`);
    else if (type) required.push(type.toLowerCase());
    else return null;
  }
  return required.length > 0 ? required : null;
}

/** What requiredOfSubject's answers are looked up in: `.class` for each class, and the type. */
function markersOf(element: Element): Set<string> {
  const markers = new Set([element.localName.toLowerCase()]);
  for (const name of (element.getAttribute('class') ?? '').toLowerCase().split(/[\t\n\f\r ]+/)) {
    if (name) markers.add(`.${name}`);
  }
  return markers;
}

/** The text of `selectors` between commas outside brackets, parentheses and strings. */
function splitTopLevel(selectors: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < selectors.length; i++) {
    const c = selectors[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(selectors.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(selectors.slice(start));
  return parts;
}

/** The compound after the last combinator outside brackets, parentheses and strings. */
function lastCompound(alternative: string): string | null {
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < alternative.length; i++) {
    const c = alternative[i] as string;
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (depth === 0 && (c === '>' || c === '+' || c === '~' || /\s/.test(c))) start = i + 1;
  }
  return quote || depth !== 0 ? null : alternative.slice(start);
}

const CLASS_NAME = /^[-_a-zA-Z0-9\u0080-\uffff]+/;
const TYPE_NAME = /^[a-zA-Z][-_a-zA-Z0-9]*/;

/** The first `.name` of a compound outside brackets and parentheses. */
function firstTopLevelClass(compound: string): string | null {
  let depth = 0;
  let quote = '';
  for (let i = 0; i < compound.length; i++) {
    const c = compound[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === '.' && depth === 0) {
      const name = CLASS_NAME.exec(compound.slice(i + 1))?.[0];
      if (name) return name;
    }
  }
  return null;
}

export function installStyleMatcher(document: Document, createEngine: CreateEngine): void {
  const engines: Engine[] = [];
  const engineOf = new Map<string, Engine>();
  const required = new Map<string, string[] | null>();
  // The markers of the element being matched, kept while jsdom's style cache is the same one: it
  // matches every rule against one element in turn, and drops that cache on any change to the page.
  const documentImpl = implOf(document);
  let lastElement: Element | null = null;
  let lastStyleCache: unknown = null;
  let lastMarkers = new Set<string>();

  function engineFor(selectors: string): Engine {
    let engine = engineOf.get(selectors);
    if (engine) return engine;
    engine = engines[Math.floor(engineOf.size / SELECTORS_PER_ENGINE)];
    if (!engine) {
      engine = createEngine({ document, DOMException: document.defaultView?.DOMException ?? DOMException });
      // jsdom's own settings for this matcher (living/helpers/selectors.js, matchesDontThrow).
      engine.configure({ LOGERRORS: false, VERBOSITY: false, IDS_DUPES: true, MIXEDCASE: true });
      engines.push(engine);
    }
    engineOf.set(selectors, engine);
    return engine;
  }

  function markersOfCurrent(element: Element): Set<string> {
    const styleCache = documentImpl._styleCache;
    if (element !== lastElement || styleCache !== lastStyleCache || !styleCache) {
      lastElement = element;
      lastStyleCache = styleCache;
      lastMarkers = markersOf(element);
    }
    return lastMarkers;
  }

  function match(selectors: string, element: Element): boolean {
    if (typeof selectors === 'string') {
      let needs = required.get(selectors);
      if (needs === undefined) {
        needs = requiredOfSubject(selectors);
        required.set(selectors, needs);
      }
      if (needs !== null) {
        const has = markersOfCurrent(element);
        if (!needs.some((marker) => has.has(marker))) return false;
      }
    }
    return engineFor(selectors).match(selectors, element);
  }

  // jsdom creates this matcher on the document's first style match: set first, it is used instead.
  documentImpl._nwsapiDontThrow = { match };
}

type DocumentImpl = { _nwsapiDontThrow?: unknown; _styleCache?: unknown };

function implOf(document: Document): DocumentImpl {
  const implKey = Object.getOwnPropertySymbols(document).find((key) => key.description === 'impl');
  const impl = implKey && (document as unknown as Record<symbol, DocumentImpl | undefined>)[implKey];
  if (!impl || !('_styleCache' in impl))
    throw new Error('jsdom changed: no document impl with a style cache');
  return impl;
}
