import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.ServerVersion;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.DatabaseResolver;
import de.bwaldvogel.mongo.backend.DocumentWithPosition;
import de.bwaldvogel.mongo.backend.EmptyIndex;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.backend.ValueComparator;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.h2.H2Collection;
import de.bwaldvogel.mongo.backend.h2.H2Database;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.backend.memory.MemoryCollection;
import de.bwaldvogel.mongo.backend.memory.MemoryDatabase;
import de.bwaldvogel.mongo.bson.BsonRegularExpression;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.bson.ObjectId;
import de.bwaldvogel.mongo.oplog.Oplog;
import io.netty.channel.Channel;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

/**
 * Starts mongo-java-server on 127.0.0.1.
 * Usage: java -cp 'lib/*' infra/stack/mongo/Launcher.java <port> <memory|h2:<file>>
 * Prints one line starting with "mongo ready" once it accepts connections; SIGTERM closes the
 * server and, for H2, the MVStore file (so the last writes are on disk).
 *
 * The library keeps unique indexes only (a secondary index is "not yet implemented. ignoring"), so
 * every list was a scan of its whole collection. Issue 31: the backends here keep every declared
 * index (unique ones too) as a sorted map beside the library's own and plan finds and counts on
 * them (IndexPlanner below): a find whose sort an index gives in order (after its equality prefix,
 * the sort ending with _id) reads that index in order and stops after skip + limit matches; a find
 * or count with an equality (or range, or literal-prefix regex) on an index's leading keys reads
 * only those entries. Every candidate still goes through the library's own matcher, and a plan
 * that cannot be made exactly falls back to the library's scan, so answers never change — only
 * how many documents are read.
 */
public class Launcher {
  public static void main(String[] args) {
    if (args.length != 2) {
      System.err.println("usage: Launcher <port> <memory|h2:<file>>");
      System.exit(2);
    }
    int port = Integer.parseInt(args[0]);
    String storage = args[1];
    MongoBackend backend;
    if (storage.equals("memory")) {
      backend = new IndexedMemoryBackend();
    } else if (storage.startsWith("h2:")) {
      backend = new IndexedH2Backend(MVStore.open(storage.substring(3)));
    } else {
      System.err.println("unknown storage '" + storage + "' (expected memory or h2:<file>)");
      System.exit(2);
      return;
    }
    // 5.0 (wire version 8) is the highest the library offers; the default 3.6 is refused by
    // current drivers. Claiming more than the server implements would hide real gaps.
    backend.version(ServerVersion.MONGO_5_0);

    MongoServer server = new MongoServer(backend);
    try {
      server.bind("127.0.0.1", port);
    } catch (Exception e) {
      // Netty rethrows java.net.BindException unchecked; its event-loop threads would keep the JVM
      // alive after main ends, so exit explicitly.
      System.err.println("cannot bind 127.0.0.1:" + port + ": " + e.getMessage());
      System.exit(1);
    }
    Runtime.getRuntime().addShutdownHook(new Thread(server::shutdown, "mongo-shutdown"));
    System.out.println("mongo ready 127.0.0.1:" + port + " storage=" + storage + " version=5.0 indexes=sorted");
    System.out.flush();
  }
}

/** What IndexPlanner needs of a collection (the library keeps these protected). */
interface PlannedCollection<P> {
  Stream<DocumentWithPosition<P>> allDocumentsWithPosition();

  Document documentAt(P position);

  boolean matches(Document document, Document query);

  QueryResult matchInOrder(Stream<Document> documents, Document query, int skip, int limit, int batchSize, Document projection);

  QueryResult matchAndSort(Stream<Document> documents, Document query, Document orderBy, int skip, int limit, int batchSize, Document projection);

  List<Index<P>> getIndexes();

  String getFullName();
}

/**
 * One declared index as a sorted map: (the keys' values, the position) → position, each key in
 * its declared direction, in the library's own value order (ValueComparator, as its sort uses).
 */
final class SortedIndex<P> {
  static final Object LOW = new Object();
  static final Object HIGH = new Object();

  final String name;
  final List<String> fields = new ArrayList<>();
  final boolean[] descending;
  final TreeMap<Object[], P> entries;
  /** A partial index's filter (partialFilterExpression): only the documents it matches are entries. */
  final Document partial;
  /** An array on an indexed path: one entry per element; then never used for order or counts. */
  boolean multikey;

  SortedIndex(Index<P> declared, Document partial) {
    this.name = declared.getName();
    this.partial = partial;
    List<IndexKey> keys = declared.getKeys();
    this.descending = new boolean[keys.size()];
    for (int i = 0; i < keys.size(); i++) {
      fields.add(keys.get(i).getKey());
      descending[i] = !keys.get(i).isAscending();
    }
    this.entries = new TreeMap<>(this::compareEntries);
  }

  int size() {
    return fields.size();
  }

  private int compareEntries(Object[] a, Object[] b) {
    for (int i = 0; i <= fields.size(); i++) {
      int cmp = compareComponent(a[i], b[i], i < fields.size() && descending[i]);
      if (cmp != 0) {
        return cmp;
      }
    }
    return 0;
  }

  private static int compareComponent(Object a, Object b, boolean descending) {
    if (a == b) {
      return 0;
    }
    if (a == LOW || b == HIGH) {
      return -1;
    }
    if (a == HIGH || b == LOW) {
      return 1;
    }
    return (descending ? ValueComparator.desc() : ValueComparator.asc()).compare(a, b);
  }

  /** The entry keys of a document at a position: one, or one per array element (multikey). */
  List<Object[]> keysOf(Index<P> declared, Document document, P position) {
    boolean array = false;
    for (String field : fields) {
      if (crossesArray(document, field)) {
        array = true;
      }
    }
    Set<KeyValue> values = declared.getKeyValues(document);
    if (array || values.size() != 1) {
      multikey = true;
    }
    List<Object[]> keys = new ArrayList<>(values.size());
    for (KeyValue value : values) {
      Object[] key = new Object[fields.size() + 1];
      for (int i = 0; i < fields.size(); i++) {
        key[i] = value.get(i);
      }
      key[fields.size()] = position;
      keys.add(key);
    }
    return keys;
  }

  private static boolean crossesArray(Document document, String path) {
    Object value = document;
    for (String fragment : path.split("\\.")) {
      if (value instanceof Collection) {
        return true;
      }
      if (!(value instanceof Document)) {
        return false;
      }
      value = ((Document) value).get(fragment);
    }
    return value instanceof Collection;
  }

  /**
   * Entries whose first keys equal `points` and whose next key lies in [low, high] (null: open
   * there; `highExclusive`: [low, high)).
   */
  NavigableMap<Object[], P> range(List<Object> points, Object low, Object high, boolean highExclusive) {
    Object[] from = new Object[fields.size() + 1];
    Object[] to = new Object[fields.size() + 1];
    int ranged = low != null || high != null ? points.size() : -1;
    // Past an exclusive high, the probe sits before every entry of that value (after, in a descending key).
    boolean beforeHigh = highExclusive && high != null;
    for (int i = 0; i <= fields.size(); i++) {
      if (i < points.size()) {
        from[i] = points.get(i);
        to[i] = points.get(i);
      } else if (i == ranged && i < fields.size()) {
        // In a descending key the larger values come first.
        Object first = descending[i] ? high : low;
        Object last = descending[i] ? low : high;
        from[i] = first == null ? LOW : first;
        to[i] = last == null ? HIGH : last;
      } else {
        boolean descendingRange = ranged >= 0 && descending[ranged];
        from[i] = ranged >= 0 && i > ranged && beforeHigh && descendingRange ? HIGH : LOW;
        to[i] = ranged >= 0 && i > ranged && beforeHigh && !descendingRange ? LOW : HIGH;
      }
    }
    return entries.subMap(from, true, to, true);
  }
}

/** The conditions of a query on one field, as bounds: a point, or a range; null: none usable. */
final class Bounds {
  final Object point;
  final Object low;
  final Object high;
  /** The range ends before `high` (a prefix's successor); else it holds `high` (a superset is fine). */
  final boolean highExclusive;
  /**
   * The bounds hold exactly the values the conditions match (one equality on a value whose equality
   * the index decides alone, or one whole-prefix regex): a count needs no document.
   */
  final boolean exact;

  private Bounds(Object point, Object low, Object high, boolean highExclusive, boolean exact) {
    this.point = point;
    this.low = low;
    this.high = high;
    this.highExclusive = highExclusive;
    this.exact = exact;
  }

  static boolean isScalar(Object value) {
    return value instanceof String
        || value instanceof Boolean
        || value instanceof ObjectId
        || value instanceof Instant
        || (value instanceof Number && Double.isFinite(((Number) value).doubleValue()));
  }

  /**
   * Bounds every document matching all of `conditions` lies within (a superset is enough: the
   * matcher decides each candidate). Equality beats a range.
   */
  static Bounds of(List<Object> conditions) {
    Object low = null;
    Object high = null;
    boolean highExclusive = false;
    boolean exact = false;
    for (Object condition : conditions) {
      if (isScalar(condition)) {
        return new Bounds(condition, null, null, false, conditions.size() == 1 && !(condition instanceof Number));
      }
      if (BsonRegularExpression.isRegularExpression(condition)) {
        boolean[] whole = {false};
        String prefix = literalPrefix(BsonRegularExpression.convertToRegularExpression(condition), whole);
        if (prefix != null) {
          // [prefix, successor): exactly the strings that start with prefix (String order).
          low = prefix;
          high = prefix.substring(0, prefix.length() - 1) + (char) (prefix.charAt(prefix.length() - 1) + 1);
          highExclusive = true;
          exact = conditions.size() == 1 && whole[0];
        }
        continue;
      }
      if (!(condition instanceof Document)) {
        continue;
      }
      Document operators = (Document) condition;
      for (String op : operators.keySet()) {
        Object arg = operators.get(op);
        if (op.equals("$eq") && isScalar(arg)) {
          return new Bounds(arg, null, null, false, false);
        } else if ((op.equals("$gt") || op.equals("$gte")) && isScalar(arg) && low == null) {
          low = arg;
        } else if ((op.equals("$lt") || op.equals("$lte")) && isScalar(arg) && high == null) {
          high = arg;
        }
      }
    }
    return low == null && high == null ? null : new Bounds(null, low, high, highExclusive, exact);
  }

  /**
   * The literal text an anchored regex requires at the start ('^10' → "10"), or null. With the
   * 'i' option only when that text has no letters (case folding cannot widen it); never with 'm'
   * or 'x', or an alternation anywhere. `whole[0]`: the pattern is that text and nothing more.
   */
  static String literalPrefix(BsonRegularExpression regex, boolean[] whole) {
    String pattern = regex.getPattern();
    String options = regex.getOptions() == null ? "" : regex.getOptions();
    if (!pattern.startsWith("^") || pattern.contains("|") || options.contains("m") || options.contains("x")) {
      return null;
    }
    StringBuilder prefix = new StringBuilder();
    int i = 1;
    while (i < pattern.length()) {
      char c = pattern.charAt(i);
      if (Character.isLetterOrDigit(c) || c == ' ' || c == '_' || c == '-' || c == '#' || c == '/' || c == ':' || c == '@' || c == ',') {
        prefix.append(c);
        i++;
      } else if (c == '\\' && i + 1 < pattern.length() && !Character.isLetterOrDigit(pattern.charAt(i + 1))) {
        prefix.append(pattern.charAt(i + 1));
        i += 2;
      } else {
        // A quantifier makes the character before it optional.
        if ((c == '?' || c == '*' || c == '{') && prefix.length() > 0) {
          prefix.setLength(prefix.length() - 1);
        }
        break;
      }
    }
    if (prefix.length() == 0) {
      return null;
    }
    whole[0] = i == pattern.length();
    if (options.contains("i")) {
      for (int j = 0; j < prefix.length(); j++) {
        if (Character.isLetter(prefix.charAt(j))) {
          return null;
        }
      }
    }
    // The last character must have a successor for the upper bound.
    return prefix.charAt(prefix.length() - 1) == Character.MAX_VALUE ? null : prefix.toString();
  }
}

/**
 * The sorted indexes of one collection and its plans. The collection calls `added`, `removed` and
 * `updated` from the library's own storage hooks (under the collection's lock), so every write
 * keeps them in step; a failure in here marks the planner broken and the library's scan answers.
 */
final class IndexPlanner<P> {
  private final PlannedCollection<P> collection;
  private final List<SortedIndex<P>> sorted = new ArrayList<>();
  private final List<Index<P>> declared = new ArrayList<>();
  /** Each position's entry keys (removal is exact, whatever the stored document is now). */
  private final HashMap<P, Object[]> keysByPosition = new HashMap<>();
  private boolean broken;
  /** How finds and counts were answered (the decorPlannerStats command; tests check plans are used). */
  private long inOrder;
  private long byCandidates;
  private long coveredCounts;
  private long candidateCounts;
  private long scans;

  IndexPlanner(PlannedCollection<P> collection) {
    this.collection = collection;
  }

  /** After the library added or dropped an index: rebuild every sorted index from the documents. */
  void rebuild() {
    try {
      sorted.clear();
      declared.clear();
      keysByPosition.clear();
      broken = false;
      for (Index<P> index : collection.getIndexes()) {
        // _id alone: the library's own index answers its lookups; its sort is rare.
        if (index.getKeys().size() == 1 && index.getKeys().get(0).getKey().equals("_id")) {
          continue;
        }
        declared.add(index);
        sorted.add(new SortedIndex<>(index, Commands.partialFilter(collection.getFullName(), index.getName())));
      }
      if (sorted.isEmpty()) {
        return;
      }
      collection.allDocumentsWithPosition().forEach(d -> add(d.getDocument(), d.getPosition()));
    } catch (RuntimeException e) {
      fail(e);
    }
  }

  /** Whether the index's partial filter is not the one this planner built it with (an H2 restart). */
  boolean partialChanged(Index<P> index) {
    Document partial = Commands.partialFilter(collection.getFullName(), index.getName());
    for (SortedIndex<P> s : sorted) {
      if (s.name.equals(index.getName())) {
        return !java.util.Objects.equals(s.partial, partial);
      }
    }
    return false;
  }

  private void fail(RuntimeException e) {
    if (!broken) {
      System.err.println("sorted indexes off for a collection (scans answer): " + e);
    }
    broken = true;
    sorted.clear();
    declared.clear();
    keysByPosition.clear();
  }

  /** Each position's entry keys per sorted index: an Object[] key, or an Object[][] (multikey). */
  private void add(Document document, P position) {
    Object[] slots = new Object[sorted.size()];
    for (int i = 0; i < sorted.size(); i++) {
      SortedIndex<P> index = sorted.get(i);
      List<Object[]> keys = index.partial != null && !collection.matches(document, index.partial)
          ? List.of()
          : index.keysOf(declared.get(i), document, position);
      for (Object[] key : keys) {
        sorted.get(i).entries.put(key, position);
      }
      slots[i] = keys.size() == 1 ? keys.get(0) : keys.toArray(new Object[0][]);
    }
    keysByPosition.put(position, slots);
  }

  private void remove(P position) {
    Object[] slots = keysByPosition.remove(position);
    if (slots == null) {
      return;
    }
    for (int i = 0; i < sorted.size(); i++) {
      if (slots[i] instanceof Object[][]) {
        for (Object[] key : (Object[][]) slots[i]) {
          sorted.get(i).entries.remove(key);
        }
      } else {
        sorted.get(i).entries.remove((Object[]) slots[i]);
      }
    }
  }

  void added(Document document, P position) {
    if (broken || sorted.isEmpty()) {
      return;
    }
    try {
      add(document, position);
    } catch (RuntimeException e) {
      fail(e);
    }
  }

  void removed(P position) {
    if (broken || sorted.isEmpty()) {
      return;
    }
    try {
      remove(position);
    } catch (RuntimeException e) {
      fail(e);
    }
  }

  void updated(P position, Document document) {
    if (broken || sorted.isEmpty()) {
      return;
    }
    try {
      remove(position);
      add(document, position);
    } catch (RuntimeException e) {
      fail(e);
    }
  }

  // ---- planning ----

  /** One index's use for a query: its equality prefix, an optional range on the next key. */
  private final class Plan {
    final SortedIndex<P> index;
    final List<Object> points = new ArrayList<>();
    Bounds range;
    /** Every condition of the query is exactly this index's bounds (a count needs no document). */
    boolean covered;
    /** Forward (1), backward (-1) or not (0): the order the sort asks, read from the index. */
    int order;

    Plan(SortedIndex<P> index) {
      this.index = index;
    }

    double score() {
      return points.size() + (range != null ? 0.5 : 0) + (order != 0 ? 0.25 : 0) + (index.partial != null ? 0.75 : 0);
    }

    NavigableMap<Object[], P> entries() {
      NavigableMap<Object[], P> entries = range == null
          ? index.range(points, null, null, false)
          : index.range(points, range.low, range.high, range.highExclusive);
      return order < 0 ? entries.descendingMap() : entries;
    }
  }

  private static void collect(Document query, Map<String, List<Object>> conditions, boolean[] onlyFields) {
    for (Map.Entry<String, Object> entry : query.entrySet()) {
      String key = entry.getKey();
      Object value = entry.getValue();
      if (key.equals("$and") && value instanceof List) {
        for (Object part : (List<?>) value) {
          if (part instanceof Document) {
            collect((Document) part, conditions, onlyFields);
          } else {
            onlyFields[0] = false;
          }
        }
      } else if (key.startsWith("$")) {
        // $or, $nor, $expr, …: they only narrow what the other conditions allow.
        onlyFields[0] = false;
      } else {
        conditions.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
      }
    }
  }

  /** The sort as (field, direction) pairs, or null when this planner cannot read it. */
  private static List<Map.Entry<String, Integer>> sortOf(Document orderBy) {
    List<Map.Entry<String, Integer>> sort = new ArrayList<>();
    if (orderBy == null) {
      return sort;
    }
    for (Map.Entry<String, Object> entry : orderBy.entrySet()) {
      if (entry.getKey().startsWith("$") || !(entry.getValue() instanceof Number)) {
        return null;
      }
      sort.add(Map.entry(entry.getKey(), ((Number) entry.getValue()).intValue() >= 0 ? 1 : -1));
    }
    return sort;
  }

  /** Every useful plan of the query, best first; empty: the library scans. */
  private List<Plan> plans(Document query, Document orderBy, boolean forCount) {
    List<Plan> plans = new ArrayList<>();
    if (broken || sorted.isEmpty()) {
      return plans;
    }
    List<Map.Entry<String, Integer>> sort = sortOf(orderBy);
    if (sort == null) {
      return plans;
    }
    Map<String, List<Object>> conditions = new LinkedHashMap<>();
    boolean[] onlyFields = {true};
    collect(query, conditions, onlyFields);
    List<Object> ids = conditions.get("_id");
    if (ids != null && sort.isEmpty()) {
      Bounds id = Bounds.of(ids);
      if (id != null && id.point != null) {
        return plans; // one document by _id: the library's own _id index
      }
    }
    for (SortedIndex<P> index : sorted) {
      if (index.partial != null && !implied(index.partial, conditions)) {
        continue; // it lacks documents the query may match
      }
      Plan plan = new Plan(index);
      boolean allExact = true;
      Set<String> fixed = new LinkedHashSet<>();
      Set<String> bounded = new LinkedHashSet<>();
      for (String field : index.fields) {
        List<Object> on = conditions.get(field);
        Bounds bounds = on == null ? null : Bounds.of(on);
        if (bounds == null) {
          break;
        }
        allExact &= bounds.exact;
        bounded.add(field);
        if (bounds.point != null) {
          plan.points.add(bounds.point);
          fixed.add(field);
        } else {
          plan.range = bounds;
          break;
        }
      }
      plan.covered = !index.multikey && index.partial == null && onlyFields[0] && allExact && !bounded.isEmpty()
          && bounded.equals(conditions.keySet());
      if (!forCount && !index.multikey && !sort.isEmpty()) {
        plan.order = orderFrom(index, fixed, sort);
      }
      if (!plan.points.isEmpty() || plan.range != null || plan.order != 0 || index.partial != null) {
        plans.add(plan);
      }
    }
    plans.sort((a, b) -> Double.compare(b.score(), a.score()));
    return plans;
  }

  /** Whether a query's conditions hold a partial filter's own, each as it is written there. */
  private static boolean implied(Document partial, Map<String, List<Object>> conditions) {
    for (Map.Entry<String, Object> entry : partial.entrySet()) {
      List<Object> on = conditions.get(entry.getKey());
      if (entry.getKey().startsWith("$") || on == null || !on.contains(entry.getValue())) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether the index gives the sort in order after the query's fixed keys: the sort (less its
   * fixed fields) must be the index's next keys with every direction the same (forward) or every
   * one reversed (backward), and end with _id, so that the order is total and equals a full sort.
   */
  private static int orderFrom(SortedIndex<?> index, Set<String> fixed, List<Map.Entry<String, Integer>> sort) {
    List<Map.Entry<String, Integer>> rest = new ArrayList<>();
    for (Map.Entry<String, Integer> key : sort) {
      if (!fixed.contains(key.getKey())) {
        rest.add(key);
      }
    }
    if (rest.isEmpty() || !rest.get(rest.size() - 1).getKey().equals("_id")) {
      return 0;
    }
    int start = fixed.size();
    if (start + rest.size() > index.size()) {
      return 0;
    }
    int direction = 0;
    for (int i = 0; i < rest.size(); i++) {
      if (!index.fields.get(start + i).equals(rest.get(i).getKey())) {
        return 0;
      }
      int indexDirection = index.descending[start + i] ? -1 : 1;
      int wanted = rest.get(i).getValue() * indexDirection;
      if (direction == 0) {
        direction = wanted;
      } else if (direction != wanted) {
        return 0;
      }
    }
    return direction;
  }

  Document stats() {
    return new Document("inOrder", inOrder)
        .append("byCandidates", byCandidates)
        .append("coveredCounts", coveredCounts)
        .append("candidateCounts", candidateCounts)
        .append("scans", scans)
        .append("indexes", (long) sorted.size())
        .append("broken", broken);
  }

  /** A find by plan, or null: the library scans. */
  QueryResult find(Document query, Document orderBy, int skip, int limit, int batchSize, Document projection) {
    try {
      List<Plan> plans = plans(query, orderBy, false);
      if (plans.isEmpty()) {
        scans++;
        return null;
      }
      Plan best = plans.get(0);
      if (best.order == 0 && limit > 0) {
        // Narrower by its bounds, but unordered: as MongoDB's planner races the two, read the
        // ordered plan first for as many documents as the narrow one has candidates; if the page
        // fills within them, it is the answer (the newest DocNumbers of a prefix, say).
        Plan ordered = plans.stream().filter(p -> p.order != 0).findFirst().orElse(null);
        int wanted = skip + limit;
        if (ordered != null) {
          int budget = best.entries().size();
          if (budget > 4 * wanted) {
            List<Document> found = new ArrayList<>(wanted);
            Iterator<P> positions = ordered.entries().values().iterator();
            for (int read = 0; read < budget && found.size() < wanted && positions.hasNext(); read++) {
              Document document = collection.documentAt(positions.next());
              if (collection.matches(document, query)) {
                found.add(document);
              }
            }
            if (found.size() == wanted) {
              inOrder++;
              return collection.matchInOrder(found.stream(), query, skip, limit, batchSize, projection);
            }
          }
        }
      }
      if (best.order != 0) {
        inOrder++;
        Stream<Document> inOrder = StreamSupport.stream(best.entries().values().spliterator(), false)
            .map(collection::documentAt);
        return collection.matchInOrder(inOrder, query, skip, limit, batchSize, projection);
      }
      // Candidates in the order of a scan (by position), so ties sort as the scan's would.
      byCandidates++;
      return collection.matchAndSort(candidates(best).stream().map(collection::documentAt), query, orderBy, skip, limit,
          batchSize, projection);
    } catch (RuntimeException e) {
      fail(e);
      return null;
    }
  }

  private List<P> candidates(Plan plan) {
    Collection<P> positions = plan.entries().values();
    List<P> list = new ArrayList<>(plan.index.multikey ? new LinkedHashSet<>(positions) : positions);
    list.sort(ValueComparator.asc()::compare);
    return list;
  }

  /** A count by plan, or -1: the library counts. */
  int count(Document query) {
    try {
      if (query == null || query.isEmpty()) {
        return -1;
      }
      List<Plan> plans = plans(query, null, true);
      if (plans.isEmpty()) {
        return -1;
      }
      Plan covered = plans.stream().filter(p -> p.covered).findFirst().orElse(null);
      if (covered != null) {
        coveredCounts++;
        return covered.entries().size();
      }
      candidateCounts++;
      int n = 0;
      for (P position : candidates(plans.get(0))) {
        if (collection.matches(collection.documentAt(position), query)) {
          n++;
        }
      }
      return n;
    } catch (RuntimeException e) {
      fail(e);
      return -1;
    }
  }

  static int countWithin(int n, int skip, int limit) {
    int counted = Math.max(0, n - Math.max(skip, 0));
    return limit > 0 ? Math.min(limit, counted) : counted;
  }
}

/** The count shape of the drivers' countDocuments: [$match, $skip?, $limit?, $group {_id: 1, n: {$sum: 1}}]. */
final class CountPipeline {
  final Document match;
  final int skip;
  final int limit;

  private CountPipeline(Document match, int skip, int limit) {
    this.match = match;
    this.skip = skip;
    this.limit = limit;
  }

  static CountPipeline of(Document command) {
    if (!(command.get("pipeline") instanceof List) || command.containsKey("let") || command.containsKey("collation")
        || command.containsKey("hint")) {
      return null;
    }
    List<?> stages = (List<?>) command.get("pipeline");
    if (stages.size() < 2 || !(stages.get(0) instanceof Document)) {
      return null;
    }
    Document first = (Document) stages.get(0);
    if (first.size() != 1 || !(first.get("$match") instanceof Document)) {
      return null;
    }
    int skip = 0;
    int limit = 0;
    int i = 1;
    for (; i < stages.size() - 1; i++) {
      if (!(stages.get(i) instanceof Document)) {
        return null;
      }
      Document stage = (Document) stages.get(i);
      if (stage.size() == 1 && stage.get("$skip") instanceof Number && limit == 0) {
        skip = ((Number) stage.get("$skip")).intValue();
      } else if (stage.size() == 1 && stage.get("$limit") instanceof Number) {
        limit = ((Number) stage.get("$limit")).intValue();
      } else {
        return null;
      }
    }
    Object last = stages.get(stages.size() - 1);
    if (!(last instanceof Document) || !(((Document) last).get("$group") instanceof Document)) {
      return null;
    }
    Document group = (Document) ((Document) last).get("$group");
    Object id = group.get("_id");
    Object n = group.get("n");
    if (group.size() != 2 || !(id instanceof Number) || ((Number) id).intValue() != 1 || !(n instanceof Document)) {
      return null;
    }
    Object sum = ((Document) n).get("$sum");
    if (((Document) n).size() != 1 || !(sum instanceof Number) || ((Number) sum).intValue() != 1) {
      return null;
    }
    return new CountPipeline((Document) first.get("$match"), skip, limit);
  }

  Document answer(String namespace, int n) {
    List<Document> batch = new ArrayList<>();
    if (n > 0) {
      batch.add(new Document("_id", 1).append("n", n));
    }
    Document cursor = new Document("id", 0L).append("ns", namespace).append("firstBatch", batch);
    return new Document("cursor", cursor).append("ok", 1.0);
  }
}

/** What both indexed collections add to the library's: planned finds and counts. */
interface CountsByPlan {
  int countByPlan(Document query, int skip, int limit);

  Document plannerStats();
}

final class Commands {
  /** Partial indexes' filters by "<namespace>\0<index name>", noted as createIndexes declares them. */
  private static final Map<String, Document> PARTIAL_FILTERS = new ConcurrentHashMap<>();

  static void notePartial(Document indexDescription) {
    String key = indexDescription.get("ns") + "\0" + indexDescription.get("name");
    Object partial = indexDescription.get("partialFilterExpression");
    if (partial instanceof Document) {
      PARTIAL_FILTERS.put(key, (Document) partial);
    } else {
      PARTIAL_FILTERS.remove(key);
    }
  }

  static Document partialFilter(String namespace, String indexName) {
    return PARTIAL_FILTERS.get(namespace + "\0" + indexName);
  }

  /** A countDocuments pipeline answered by the collection's plan, or null (the library runs it). */
  static Document plannedCount(String database, Function<String, MongoCollection<?>> resolve, String command, Document query) {
    if (command.equals("decorPlannerStats") && query.get(command) instanceof String) {
      // This server's own command: how a collection's finds and counts were answered.
      MongoCollection<?> collection = resolve.apply((String) query.get(command));
      Document stats = collection instanceof CountsByPlan ? ((CountsByPlan) collection).plannerStats() : new Document();
      return stats.append("ok", 1.0);
    }
    if (!command.equalsIgnoreCase("aggregate") || !(query.get(command) instanceof String)) {
      return null;
    }
    CountPipeline count = CountPipeline.of(query);
    if (count == null) {
      return null;
    }
    String name = (String) query.get(command);
    MongoCollection<?> collection = resolve.apply(name);
    if (!(collection instanceof CountsByPlan)) {
      return null;
    }
    int n = ((CountsByPlan) collection).countByPlan(count.match, count.skip, count.limit);
    return count.answer(database + "." + name, n);
  }

  static Index<?> quietSecondary(String indexName, List<IndexKey> keys) {
    return new EmptyIndex<>(indexName, keys);
  }
}

// ---- the memory backend ----

class IndexedMemoryBackend extends MemoryBackend {
  @Override
  public MemoryDatabase openOrCreateDatabase(String databaseName) {
    return new IndexedMemoryDatabase(databaseName, getCursorRegistry());
  }
}

class IndexedMemoryDatabase extends MemoryDatabase {
  IndexedMemoryDatabase(String databaseName, CursorRegistry cursorRegistry) {
    super(databaseName, cursorRegistry);
  }

  @Override
  protected MemoryCollection openOrCreateCollection(String collectionName, CollectionOptions options) {
    return new IndexedMemoryCollection(this, collectionName, options, cursorRegistry);
  }

  @Override
  protected synchronized void addIndex(Document indexDescription) {
    Commands.notePartial(indexDescription);
    super.addIndex(indexDescription);
  }

  @Override
  @SuppressWarnings("unchecked")
  protected Index<Integer> openOrCreateSecondaryIndex(String collectionName, String indexName, List<IndexKey> keys, boolean sparse) {
    return (Index<Integer>) Commands.quietSecondary(indexName, keys);
  }

  @Override
  public Document handleCommand(Channel channel, String command, Document query, DatabaseResolver resolver, Oplog oplog) {
    Document counted = Commands.plannedCount(getDatabaseName(), name -> resolveCollection(name, false), command, query);
    return counted != null ? counted : super.handleCommand(channel, command, query, resolver, oplog);
  }
}

class IndexedMemoryCollection extends MemoryCollection implements PlannedCollection<Integer>, CountsByPlan {
  /**
   * No data size kept (issue 31): the library encodes the old and the new document to BSON on every
   * update (and each insert or delete) to keep it, for collStats alone, which nothing here reads; it
   * was a fifth to a third of this server's CPU per password reset in the bench. collStats says size 0.
   */
  @Override
  protected boolean tracksDataSize() {
    return false;
  }

  private IndexPlanner<Integer> planner;

  IndexedMemoryCollection(MongoDatabase database, String collectionName, CollectionOptions options, CursorRegistry cursorRegistry) {
    super(database, collectionName, options, cursorRegistry);
  }

  private IndexPlanner<Integer> planner() {
    if (planner == null) {
      planner = new IndexPlanner<>(this);
    }
    return planner;
  }

  @Override
  public synchronized void addIndex(Index<Integer> index) {
    int before = getIndexes().size();
    super.addIndex(index);
    if (getIndexes().size() != before || planner().partialChanged(index)) {
      planner().rebuild();
    }
  }

  @Override
  public synchronized void dropIndex(String indexName) {
    super.dropIndex(indexName);
    planner().rebuild();
  }

  @Override
  protected Integer addDocumentInternal(Document document) {
    Integer position = super.addDocumentInternal(document);
    planner().added(document, position);
    return position;
  }

  @Override
  protected void removeDocument(Integer position) {
    planner().removed(position);
    super.removeDocument(position);
  }

  @Override
  protected void handleUpdate(Integer position, Document oldDocument, Document newDocument) {
    super.handleUpdate(position, oldDocument, newDocument);
    planner().updated(position, newDocument);
  }

  @Override
  protected QueryResult queryDocuments(Document query, Document orderBy, int skip, int limit, int batchSize, Document projection) {
    QueryResult planned = planner().find(query, orderBy, skip, limit, batchSize, projection);
    return planned != null ? planned : super.queryDocuments(query, orderBy, skip, limit, batchSize, projection);
  }

  @Override
  public synchronized int count(Document query, int skip, int limit) {
    int n = planner().count(query);
    return n >= 0 ? IndexPlanner.countWithin(n, skip, limit) : super.count(query, skip, limit);
  }

  @Override
  public int countByPlan(Document query, int skip, int limit) {
    return count(query, skip, limit);
  }

  @Override
  public synchronized Document plannerStats() {
    return planner().stats();
  }

  @Override
  public String getFullName() {
    return getDatabaseName() + "." + getCollectionName();
  }

  @Override
  public Stream<DocumentWithPosition<Integer>> allDocumentsWithPosition() {
    return streamAllDocumentsWithPosition();
  }

  @Override
  public Document documentAt(Integer position) {
    return getDocument(position);
  }

  @Override
  public boolean matches(Document document, Document query) {
    return documentMatchesQuery(document, query);
  }

  @Override
  public QueryResult matchInOrder(Stream<Document> documents, Document query, int skip, int limit, int batchSize, Document projection) {
    return matchDocumentsFromStream(query, documents, skip, limit, batchSize, (Comparator<Document>) null, projection);
  }

  @Override
  public QueryResult matchAndSort(Stream<Document> documents, Document query, Document orderBy, int skip, int limit, int batchSize,
      Document projection) {
    return matchDocumentsFromStream(documents, query, orderBy, skip, limit, batchSize, projection);
  }
}

// ---- the H2 backend (npm start: documents in an MVStore file; the sorted indexes are rebuilt at start) ----

class IndexedH2Backend extends H2Backend {
  IndexedH2Backend(MVStore mvStore) {
    super(mvStore);
  }

  @Override
  protected MongoDatabase openOrCreateDatabase(String databaseName) {
    return IndexedH2Database.open(databaseName, getMvStore(), getCursorRegistry());
  }
}

class IndexedH2Database extends H2Database {
  /** The store for collections opened from inside the library's constructor (before fields are set). */
  private static final ThreadLocal<MVStore> OPENING = new ThreadLocal<>();
  private final MVStore store;

  private IndexedH2Database(String databaseName, MVStore mvStore, CursorRegistry cursorRegistry) {
    super(databaseName, mvStore, cursorRegistry);
    this.store = mvStore;
  }

  static IndexedH2Database open(String databaseName, MVStore mvStore, CursorRegistry cursorRegistry) {
    OPENING.set(mvStore);
    try {
      return new IndexedH2Database(databaseName, mvStore, cursorRegistry);
    } finally {
      OPENING.remove();
    }
  }

  @Override
  protected MongoCollection<Object> openOrCreateCollection(String collectionName, CollectionOptions options) {
    MVStore mvStore = store != null ? store : OPENING.get();
    String fullName = getFullCollectionNamespace(collectionName);
    // The library's own map names (H2Database), so existing files open unchanged.
    MVMap<Object, Document> dataMap = mvStore.openMap("databases." + fullName);
    MVMap<String, Object> metaMap = mvStore.openMap("meta." + fullName);
    return new IndexedH2Collection(this, collectionName, options, dataMap, metaMap, cursorRegistry);
  }

  @Override
  protected synchronized void addIndex(Document indexDescription) {
    Commands.notePartial(indexDescription);
    super.addIndex(indexDescription);
  }

  @Override
  @SuppressWarnings("unchecked")
  protected Index<Object> openOrCreateSecondaryIndex(String collectionName, String indexName, List<IndexKey> keys, boolean sparse) {
    return (Index<Object>) Commands.quietSecondary(indexName, keys);
  }

  @Override
  public Document handleCommand(Channel channel, String command, Document query, DatabaseResolver resolver, Oplog oplog) {
    Document counted = Commands.plannedCount(getDatabaseName(), name -> resolveCollection(name, false), command, query);
    return counted != null ? counted : super.handleCommand(channel, command, query, resolver, oplog);
  }
}

class IndexedH2Collection extends H2Collection implements PlannedCollection<Object>, CountsByPlan {
  /**
   * No data size kept (issue 31): the library encodes the old and the new document to BSON on every
   * update (and each insert or delete) to keep it, for collStats alone, which nothing here reads; it
   * was a fifth to a third of this server's CPU per password reset in the bench. collStats says size 0.
   */
  @Override
  protected boolean tracksDataSize() {
    return false;
  }

  private IndexPlanner<Object> planner;

  IndexedH2Collection(MongoDatabase database, String collectionName, CollectionOptions options, MVMap<Object, Document> dataMap,
      MVMap<String, Object> metaMap, CursorRegistry cursorRegistry) {
    super(database, collectionName, options, dataMap, metaMap, cursorRegistry);
  }

  private IndexPlanner<Object> planner() {
    if (planner == null) {
      planner = new IndexPlanner<>(this);
    }
    return planner;
  }

  @Override
  public synchronized void addIndex(Index<Object> index) {
    int before = getIndexes().size();
    super.addIndex(index);
    if (getIndexes().size() != before || planner().partialChanged(index)) {
      planner().rebuild();
    }
  }

  @Override
  public synchronized void dropIndex(String indexName) {
    super.dropIndex(indexName);
    planner().rebuild();
  }

  @Override
  protected Object addDocumentInternal(Document document) {
    Object position = super.addDocumentInternal(document);
    planner().added(document, position);
    return position;
  }

  @Override
  protected void removeDocument(Object position) {
    planner().removed(position);
    super.removeDocument(position);
  }

  @Override
  protected void handleUpdate(Object position, Document oldDocument, Document newDocument) {
    super.handleUpdate(position, oldDocument, newDocument);
    planner().updated(position, newDocument);
  }

  @Override
  protected QueryResult queryDocuments(Document query, Document orderBy, int skip, int limit, int batchSize, Document projection) {
    QueryResult planned = planner().find(query, orderBy, skip, limit, batchSize, projection);
    return planned != null ? planned : super.queryDocuments(query, orderBy, skip, limit, batchSize, projection);
  }

  @Override
  public synchronized int count(Document query, int skip, int limit) {
    int n = planner().count(query);
    return n >= 0 ? IndexPlanner.countWithin(n, skip, limit) : super.count(query, skip, limit);
  }

  @Override
  public int countByPlan(Document query, int skip, int limit) {
    return count(query, skip, limit);
  }

  @Override
  public synchronized Document plannerStats() {
    return planner().stats();
  }

  @Override
  public String getFullName() {
    return getDatabaseName() + "." + getCollectionName();
  }

  @Override
  public Stream<DocumentWithPosition<Object>> allDocumentsWithPosition() {
    return streamAllDocumentsWithPosition();
  }

  @Override
  public Document documentAt(Object position) {
    return getDocument(position);
  }

  @Override
  public boolean matches(Document document, Document query) {
    return documentMatchesQuery(document, query);
  }

  @Override
  public QueryResult matchInOrder(Stream<Document> documents, Document query, int skip, int limit, int batchSize, Document projection) {
    return matchDocumentsFromStream(query, documents, skip, limit, batchSize, (Comparator<Document>) null, projection);
  }

  @Override
  public QueryResult matchAndSort(Stream<Document> documents, Document query, Document orderBy, int skip, int limit, int batchSize,
      Document projection) {
    return matchDocumentsFromStream(documents, query, orderBy, skip, limit, batchSize, projection);
  }
}
