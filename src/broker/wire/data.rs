//! The data APIs on the wire: Produce appends to the in-memory log, Fetch
//! and ListOffsets read it (the broker's `log` module).

use super::{ms, Ctx, CORRUPT_MESSAGE, OFFSET_OUT_OF_RANGE, UNKNOWN_TOPIC_OR_PARTITION};
use bytes::Bytes;
use kafka_protocol::messages::*;
use std::time::{Duration, Instant};

impl Ctx<'_> {
    pub(super) fn list_offsets(&self, r: ListOffsetsRequest) -> ListOffsetsResponse {
        let state = self.broker.lock();
        let mut out = ListOffsetsResponse::default();
        for t in &r.topics {
            let mut rt = list_offsets_response::ListOffsetsTopicResponse::default();
            rt.name = t.name.clone();
            for p in &t.partitions {
                let mut rp = list_offsets_response::ListOffsetsPartitionResponse::default();
                rp.partition_index = p.partition_index;
                rp.timestamp = -1;
                rp.leader_epoch = -1;
                match state.topics.partition(t.name.as_str(), p.partition_index) {
                    // -2 earliest (the log starts at 0); -1 latest and any
                    // timestamp: the log end (no record carries a newer one
                    // as far as this log knows).
                    Some(log) => rp.offset = if p.timestamp == -2 { 0 } else { log.end() },
                    None => {
                        rp.error_code = UNKNOWN_TOPIC_OR_PARTITION;
                        rp.offset = -1;
                    }
                }
                rt.partitions.push(rp);
            }
            out.topics.push(rt);
        }
        out
    }

    /// Reads every asked partition; `(response, bytes found)`.
    fn fetch_once(&self, r: &FetchRequest) -> (FetchResponse, usize) {
        let state = self.broker.lock();
        let mut out = FetchResponse::default();
        let mut total = 0;
        let max_total = usize::try_from(r.max_bytes).unwrap_or(0).max(1);
        for t in &r.topics {
            let mut rt = fetch_response::FetchableTopicResponse::default();
            rt.topic = t.topic.clone();
            for p in &t.partitions {
                let mut rp = fetch_response::PartitionData::default();
                rp.partition_index = p.partition;
                rp.log_start_offset = 0;
                match state.topics.partition(t.topic.as_str(), p.partition) {
                    None => {
                        rp.error_code = UNKNOWN_TOPIC_OR_PARTITION;
                        rp.high_watermark = -1;
                        rp.last_stable_offset = -1;
                    }
                    Some(log) => {
                        rp.high_watermark = log.end();
                        rp.last_stable_offset = log.end();
                        if p.fetch_offset < 0 || p.fetch_offset > log.end() {
                            rp.error_code = OFFSET_OUT_OF_RANGE;
                        } else if total < max_total {
                            let limit = usize::try_from(p.partition_max_bytes)
                                .unwrap_or(0)
                                .min(max_total - total)
                                .max(1);
                            let records = log.read(p.fetch_offset, limit);
                            total += records.len();
                            rp.records = Some(records);
                        }
                    }
                }
                if rp.records.is_none() {
                    rp.records = Some(Bytes::new());
                }
                rt.partitions.push(rp);
            }
            out.responses.push(rt);
        }
        (out, total)
    }

    /// Fetch: the stored batches from the asked offsets; with nothing to
    /// return, waits up to `max_wait_ms` (checking every 50 ms) as Kafka's
    /// DelayedFetch does.
    pub(super) async fn fetch(&self, r: FetchRequest) -> FetchResponse {
        let started = Instant::now();
        let wait = Duration::from_millis(ms(r.max_wait_ms).min(30_000));
        loop {
            let (out, found) = self.fetch_once(&r);
            if found > 0 || started.elapsed() >= wait {
                return out;
            }
            tokio::time::sleep(Duration::from_millis(50).min(wait)).await;
        }
    }

    pub(super) fn produce(&self, r: ProduceRequest) -> Result<ProduceResponse, String> {
        let mut state = self.broker.lock();
        let mut out = ProduceResponse::default();
        for t in &r.topic_data {
            let mut rt = produce_response::TopicProduceResponse::default();
            rt.name = t.name.clone();
            for p in &t.partition_data {
                let mut rp = produce_response::PartitionProduceResponse::default();
                rp.index = p.index;
                rp.log_append_time_ms = -1;
                rp.log_start_offset = 0;
                let records = p.records.clone().unwrap_or_default();
                match state.topics.partition_mut(t.name.as_str(), p.index) {
                    None => {
                        rp.error_code = UNKNOWN_TOPIC_OR_PARTITION;
                        rp.base_offset = -1;
                    }
                    Some(log) => match log.append(&records) {
                        Ok(base) => rp.base_offset = base,
                        Err(e) => {
                            eprintln!(
                                "groupscope broker: {}: Produce to {}-{}: {e}",
                                self.peer,
                                t.name.as_str(),
                                p.index
                            );
                            rp.error_code = CORRUPT_MESSAGE;
                            rp.base_offset = -1;
                        }
                    },
                }
                rt.partition_responses.push(rp);
            }
            out.responses.push(rt);
        }
        Ok(out)
    }
}
