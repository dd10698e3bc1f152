package groupscope.streams;

import java.io.FileWriter;
import java.io.IOException;
import java.io.Writer;

/** One NDJSON line per event, each with the wall clock in ms ("ts") and the instance ("inst"). */
final class Events {
  private final Writer out;
  private final String inst;

  Events(String path, String inst) throws IOException {
    this.out = new FileWriter(path, true);
    this.inst = inst;
  }

  static String q(Object s) {
    if (s == null) return "null";
    String t = s.toString().replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", " ");
    return "\"" + t + "\"";
  }

  /** fields: a JSON fragment without braces, e.g. "\"task\":\"0_1\"". */
  synchronized void emit(String ev, String fields) {
    try {
      out.write("{\"ts\":" + System.currentTimeMillis() + ",\"inst\":" + q(inst) + ",\"ev\":" + q(ev)
          + (fields == null || fields.isEmpty() ? "" : "," + fields) + ",\"thread\":" + q(Thread.currentThread().getName()) + "}\n");
      out.flush();
    } catch (IOException e) {
      throw new RuntimeException(e);
    }
  }

  synchronized void close() {
    try { out.close(); } catch (IOException e) { /* ignore */ }
  }
}
