// One Java consumer (Apache Kafka's kafka-clients) in its own process, the
// Java twin of tests/broker/consumer.py for tests/logs/story.py: it prints
// one JSON object per line on stdout (assigned partitions, revoked ones)
// and reads "close" on stdin (close it, then exit); SIGKILL crashes it. Its
// own log (the consumer's INFO lines) goes to stderr in Kafka's layout,
// which the story keeps as the client's log.
//
//   java -cp 'LIBS/*' -Dlog4j.configuration=file:client-log4j.properties \
//       JavaConsumer.java BOOTSTRAP GROUP INSTANCE_ID|- TOPIC [SESSION_MS]
//
// (Java runs the single source file; LIBS holds kafka-clients, slf4j and
// reload4j, as scripts/kafka fetches them.)

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

public class JavaConsumer {
    static synchronized void say(String json) {
        System.out.println(json);
        System.out.flush();
    }

    static String names(Collection<TopicPartition> ps) {
        TreeSet<String> sorted = new TreeSet<>();
        for (TopicPartition p : ps) sorted.add("\"" + p.topic() + "-" + p.partition() + "\"");
        return "[" + String.join(",", sorted) + "]";
    }

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0], group = args[1], instance = args[2], topic = args[3];
        String session = args.length > 4 ? args[4] : "10000";
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("group.id", group);
        p.put("client.id", "java");
        p.put("session.timeout.ms", session);
        p.put("partition.assignment.strategy", "org.apache.kafka.clients.consumer.RangeAssignor");
        p.put("auto.offset.reset", "earliest");
        p.put("key.deserializer", ByteArrayDeserializer.class.getName());
        p.put("value.deserializer", ByteArrayDeserializer.class.getName());
        if (!instance.equals("-")) p.put("group.instance.id", instance);
        AtomicBoolean closing = new AtomicBoolean(false);
        Thread stdin = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(System.in))) {
                String line;
                while ((line = r.readLine()) != null) {
                    if (line.trim().equals("close")) break;
                }
            } catch (Exception e) {
                // stdin closed: close as asked
            }
            closing.set(true);
        });
        stdin.setDaemon(true);
        stdin.start();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p)) {
            TreeSet<String> held = new TreeSet<>();
            consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
                public void onPartitionsRevoked(Collection<TopicPartition> ps) {
                    say("{\"event\":\"revoked\",\"partitions\":" + names(ps) + "}");
                }

                public void onPartitionsAssigned(Collection<TopicPartition> ps) {
                    say("{\"event\":\"assigned\",\"partitions\":" + names(ps) + "}");
                }
            });
            while (!closing.get()) {
                consumer.poll(Duration.ofMillis(100));
            }
        }
        say("{\"event\":\"closed\"}");
    }
}
