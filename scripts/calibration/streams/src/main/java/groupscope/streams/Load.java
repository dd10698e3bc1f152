package groupscope.streams;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Helpers for scripts/calibrate-streams:
 *   topics BOOTSTRAP INPUT CHANGELOG PARTITIONS     create the input topic and the store's changelog
 *   preload BOOTSTRAP TOPIC PARTITIONS N VALUE_BYTES   N records per partition with distinct keys
 *   steady BOOTSTRAP TOPIC PARTITIONS RATE KEYS     RATE records/s per partition, until killed
 *   wait-empty BOOTSTRAP GROUP TIMEOUT_S          wait until the group has no member
 */
public final class Load {
  static Properties producerProps(String bootstrap) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    return p;
  }

  public static void main(String[] a) throws Exception {
    String bootstrap = a[1];
    switch (a[0]) {
      case "topics": {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        int n = Integer.parseInt(a[4]);
        try (Admin admin = Admin.create(p)) {
          NewTopic in = new NewTopic(a[2], n, (short) 1);
          NewTopic cl = new NewTopic(a[3], n, (short) 1).configs(Map.of("cleanup.policy", "compact", "message.timestamp.type", "CreateTime"));
          admin.createTopics(List.of(in, cl)).all().get();
        }
        break;
      }
      case "preload": {
        String topic = a[2];
        int parts = Integer.parseInt(a[3]);
        long n = Long.parseLong(a[4]);
        int vb = Integer.parseInt(a[5]);
        Properties p = producerProps(bootstrap);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, 512 * 1024);
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none");
        p.put(ProducerConfig.ACKS_CONFIG, "1");
        long t0 = System.currentTimeMillis();
        try (KafkaProducer<String, byte[]> pr = new KafkaProducer<>(p)) {
          java.util.Random rnd = new java.util.Random(1);
          for (long i = 0; i < n; i++) {
            for (int part = 0; part < parts; part++) {
              byte[] v = new byte[vb];
              rnd.nextBytes(v); // incompressible, like real state
              java.nio.ByteBuffer.wrap(v).putLong(1);
              pr.send(new ProducerRecord<>(topic, part, "pre-" + part + "-" + i, v));
            }
          }
          pr.flush();
        }
        long ms = System.currentTimeMillis() - t0;
        System.out.printf("{\"preloaded\":%d,\"partitions\":%d,\"value_bytes\":%d,\"ms\":%d}%n", n, parts, vb, ms);
        break;
      }
      case "steady": {
        String topic = a[2];
        int parts = Integer.parseInt(a[3]);
        double rate = Double.parseDouble(a[4]);
        int keys = Integer.parseInt(a[5]);
        Properties p = producerProps(bootstrap);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        long interval = (long) (1e6 / rate); // us between rounds
        try (KafkaProducer<String, byte[]> pr = new KafkaProducer<>(p)) {
          long next = System.nanoTime() / 1000;
          long i = 0;
          while (true) {
            for (int part = 0; part < parts; part++) {
              pr.send(new ProducerRecord<>(topic, part, System.currentTimeMillis(), "k-" + part + "-" + (i % keys), new byte[8]));
            }
            i++;
            next += interval;
            long sleep = next - System.nanoTime() / 1000;
            if (sleep > 0) Thread.sleep(sleep / 1000, (int) (sleep % 1000) * 1000);
          }
        }
      }
      case "wait-empty": {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        long deadline = System.currentTimeMillis() + 1000L * Long.parseLong(a[3]);
        try (Admin admin = Admin.create(p)) {
          while (true) {
            ConsumerGroupDescription d;
            try {
              d = admin.describeConsumerGroups(List.of(a[2])).all().get().get(a[2]);
            } catch (ExecutionException e) {
              System.out.println("{\"group\":\"absent\"}");
              return;
            }
            if (d.members().isEmpty()) {
              System.out.println("{\"group\":\"" + d.state() + "\",\"members\":0}");
              return;
            }
            if (System.currentTimeMillis() > deadline) {
              System.out.println("{\"group\":\"" + d.state() + "\",\"members\":" + d.members().size() + ",\"timeout\":true}");
              System.exit(1);
            }
            Thread.sleep(1000);
          }
        }
      }
      default:
        throw new IllegalArgumentException(a[0]);
    }
  }
}
