package groupscope.streams;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.ThreadMetadata;
import org.apache.kafka.streams.processor.StandbyUpdateListener;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * The instrumented Streams application: source topic -> "agg" (a running count per key kept in
 * a persistent RocksDB key-value store "store", logged to its changelog, values padded to
 * VALUE_BYTES) -> nothing downstream. Settings come from the environment (see main()).
 * Stops gracefully (KafkaStreams.close()) on SIGTERM.
 */
public final class App {
  static Events events;

  static String env(String k, String d) {
    String v = System.getenv(k);
    return v == null || v.isEmpty() ? d : v;
  }

  static String tasksJson(java.util.Set<org.apache.kafka.streams.TaskMetadata> ts) {
    return ts.stream().map(t -> Events.q(t.taskId())).sorted().collect(Collectors.joining(",", "[", "]"));
  }

  static void snapshot(KafkaStreams s, String why) {
    try {
      StringBuilder b = new StringBuilder("\"why\":" + Events.q(why) + ",\"threads\":[");
      boolean first = true;
      for (ThreadMetadata t : s.metadataForLocalThreads()) {
        if (!first) b.append(',');
        first = false;
        b.append("{\"name\":").append(Events.q(t.threadName()))
            .append(",\"state\":").append(Events.q(t.threadState()))
            .append(",\"active\":").append(tasksJson(t.activeTasks()))
            .append(",\"standby\":").append(tasksJson(t.standbyTasks())).append('}');
      }
      b.append(']');
      events.emit("tasks", b.toString());
    } catch (Exception e) {
      events.emit("tasks_error", "\"error\":" + Events.q(e));
    }
  }

  static final class Agg implements Processor<String, byte[], Void, Void> {
    private final int valueBytes;
    private KeyValueStore<String, byte[]> store;
    private TaskId task;
    private long count;

    Agg(int valueBytes) { this.valueBytes = valueBytes; }

    @Override public void init(ProcessorContext<Void, Void> ctx) {
      task = ctx.taskId();
      store = ctx.getStateStore("store");
      count = 0;
      events.emit("task_init", "\"task\":" + Events.q(task) + ",\"approx_entries\":" + store.approximateNumEntries());
    }

    @Override public void process(Record<String, byte[]> r) {
      byte[] old = store.get(r.key());
      long n = old == null || old.length < 8 ? 0 : ByteBuffer.wrap(old).getLong();
      byte[] v = new byte[valueBytes];
      ByteBuffer.wrap(v).putLong(n + 1);
      store.put(r.key(), v);
      long now = System.currentTimeMillis();
      if (count++ == 0) events.emit("first_record", "\"task\":" + Events.q(task) + ",\"rts\":" + r.timestamp());
      events.emit("rec", "\"task\":" + Events.q(task) + ",\"rts\":" + r.timestamp() + ",\"lat\":" + (now - r.timestamp()));
    }

    @Override public void close() {
      events.emit("task_close", "\"task\":" + Events.q(task) + ",\"processed\":" + count);
    }
  }

  public static void main(String[] args) throws Exception {
    String inst = env("INSTANCE", "i0");
    String stateDir = env("STATE_DIR", System.getProperty("java.io.tmpdir") + "/gs-streams-" + inst);
    events = new Events(env("EVENTS", "events-" + inst + ".ndjson"), inst);
    String appId = env("APP_ID", "gs-streams");
    String input = env("INPUT", "gs-in");
    int valueBytes = Integer.parseInt(env("VALUE_BYTES", "1000"));

    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, appId);
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, env("BOOTSTRAP", "127.0.0.1:19092"));
    p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir);
    p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, Integer.parseInt(env("THREADS", "1")));
    p.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, Integer.parseInt(env("STANDBYS", "0")));
    p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, Integer.parseInt(env("COMMIT_MS", "1000")));
    p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0L);
    p.put(StreamsConfig.APPLICATION_SERVER_CONFIG, "127.0.0.1:" + (7000 + Math.abs(inst.hashCode() % 1000)));
    p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.String().getClass());
    p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.ByteArray().getClass());
    p.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), Integer.parseInt(env("SESSION_MS", "30000")));
    p.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), Integer.parseInt(env("HEARTBEAT_MS", "3000")));
    p.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
    String gi = env("GROUP_INSTANCE_ID", "");
    if (!gi.isEmpty()) p.put(StreamsConfig.consumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG), gi);

    Topology t = new Topology();
    t.addSource("src", Serdes.String().deserializer(), Serdes.ByteArray().deserializer(), input);
    t.addProcessor("agg", () -> new Agg(valueBytes), "src");
    t.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore("store"), Serdes.String(), Serdes.ByteArray())
        .withCachingDisabled(), "agg");

    // What the state dir holds before start: the persisted process id (KIP-... / KAFKA-10716).
    Path meta = Paths.get(stateDir, appId, "kafka-streams-process-metadata");
    events.emit("start", "\"state_dir\":" + Events.q(stateDir) + ",\"group_instance_id\":" + Events.q(gi.isEmpty() ? null : gi)
        + ",\"process_metadata\":" + Events.q(Files.exists(meta) ? Files.readString(meta) : null)
        + ",\"props\":" + Events.q(p));

    KafkaStreams s = new KafkaStreams(t, p);
    s.setStateListener((to, from) -> {
      events.emit("state", "\"from\":" + Events.q(from) + ",\"to\":" + Events.q(to));
      if (to == KafkaStreams.State.RUNNING) snapshot(s, "running");
    });
    s.setGlobalStateRestoreListener(new StateRestoreListener() {
      @Override public void onRestoreStart(TopicPartition tp, String store, long start, long end) {
        events.emit("restore_start", "\"tp\":" + Events.q(tp) + ",\"p\":" + tp.partition() + ",\"store\":" + Events.q(store)
            + ",\"start\":" + start + ",\"end\":" + end);
      }
      // Batches come every ~1000 records: one line per partition per second at most, with the
      // records restored since the previous line.
      final java.util.Map<TopicPartition, long[]> acc = new java.util.concurrent.ConcurrentHashMap<>();
      @Override public void onBatchRestored(TopicPartition tp, String store, long batchEnd, long n) {
        long now = System.currentTimeMillis();
        long[] a = acc.computeIfAbsent(tp, k -> new long[] {now, 0});
        a[1] += n;
        if (now - a[0] >= 1000) {
          events.emit("restore_batch", "\"tp\":" + Events.q(tp) + ",\"p\":" + tp.partition() + ",\"batch_end\":" + batchEnd + ",\"n\":" + a[1]);
          a[0] = now;
          a[1] = 0;
        }
      }
      @Override public void onRestoreEnd(TopicPartition tp, String store, long total) {
        acc.remove(tp);
        events.emit("restore_end", "\"tp\":" + Events.q(tp) + ",\"p\":" + tp.partition() + ",\"total\":" + total);
      }
      @Override public void onRestoreSuspended(TopicPartition tp, String store, long total) {
        events.emit("restore_suspended", "\"tp\":" + Events.q(tp) + ",\"p\":" + tp.partition() + ",\"total\":" + total);
      }
    });
    s.setStandbyUpdateListener(new StandbyUpdateListener() {
      @Override public void onUpdateStart(TopicPartition tp, String store, long start) {
        events.emit("standby_start", "\"tp\":" + Events.q(tp) + ",\"p\":" + tp.partition() + ",\"start\":" + start);
      }
      @Override public void onBatchLoaded(TopicPartition tp, String store, TaskId task, long batchEnd, long n, long endOffset) {
        events.emit("standby_batch", "\"tp\":" + Events.q(tp) + ",\"p\":" + tp.partition() + ",\"task\":" + Events.q(task)
            + ",\"batch_end\":" + batchEnd + ",\"n\":" + n + ",\"end\":" + endOffset);
      }
      @Override public void onUpdateSuspended(TopicPartition tp, String store, long stored, long end, SuspendReason reason) {
        events.emit("standby_suspended", "\"tp\":" + Events.q(tp) + ",\"p\":" + tp.partition() + ",\"stored\":" + stored
            + ",\"end\":" + end + ",\"reason\":" + Events.q(reason));
      }
    });

    CountDownLatch done = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      events.emit("closing", "");
      snapshot(s, "closing");
      boolean ok = s.close(Duration.ofSeconds(60));
      events.emit("closed", "\"clean\":" + ok);
      events.close();
      done.countDown();
    }, "shutdown"));
    s.start();
    // Snapshot the tasks every 2 s too (standby/warm-up tasks change without a state transition).
    String last = "";
    while (done.getCount() > 0) {
      Thread.sleep(500);
      try {
        String cur = s.metadataForLocalThreads().stream()
            .map(m -> tasksJson(m.activeTasks()) + "/" + tasksJson(m.standbyTasks())).collect(Collectors.joining(";"));
        if (!cur.equals(last)) { snapshot(s, "changed"); last = cur; }
      } catch (Exception e) { /* closing */ }
    }
  }
}
