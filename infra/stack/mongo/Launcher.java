import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.ServerVersion;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;

/**
 * Starts mongo-java-server on 127.0.0.1.
 * Usage: java -cp 'lib/*' infra/stack/mongo/Launcher.java <port> <memory|h2:<file>>
 * Prints one line starting with "mongo ready" once it accepts connections; SIGTERM closes the
 * server and, for H2, the MVStore file (so the last writes are on disk).
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
      backend = new MemoryBackend();
    } else if (storage.startsWith("h2:")) {
      backend = new H2Backend(storage.substring(3));
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
    System.out.println("mongo ready 127.0.0.1:" + port + " storage=" + storage + " version=5.0");
    System.out.flush();
  }
}
