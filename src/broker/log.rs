//! Topics and their in-memory logs: what Produce appends and Fetch reads.
//!
//! A partition keeps the raw record batches (magic v2) a producer sent, each
//! with its `baseOffset` rewritten to the log end offset, as Kafka's
//! `LogValidator` assigns offsets (Kafka: `LogValidator.assignOffsetsNonCompressed`
//! rewrites every record; a v2 batch's `baseOffset` is its first 8 bytes
//! and not covered by the CRC, which starts at `attributes`).

use bytes::{Bytes, BytesMut};
use std::collections::BTreeMap;

/// One partition's log: batches in offset order and the log end offset.
#[derive(Clone, Debug, Default)]
pub struct PartitionLog {
    /// (base offset, next offset after the batch, the batch's bytes).
    batches: Vec<(i64, i64, Bytes)>,
    end: i64,
}

impl PartitionLog {
    pub fn end(&self) -> i64 {
        self.end
    }

    /// Appends `records` (one or more v2 batches); returns the base offset
    /// of the first, or an error message for bytes that are no v2 batches.
    pub fn append(&mut self, records: &[u8]) -> Result<i64, String> {
        let batches = split_batches(records)?;
        let base = self.end;
        for batch in batches {
            let mut b = BytesMut::from(batch);
            let last_delta = i32::from_be_bytes([b[23], b[24], b[25], b[26]]);
            b[..8].copy_from_slice(&self.end.to_be_bytes());
            let next = self.end + i64::from(last_delta) + 1;
            self.batches.push((self.end, next, b.freeze()));
            self.end = next;
        }
        Ok(base)
    }

    /// The batches holding `offset` and after, at most about `max_bytes`
    /// (always at least one batch, as Kafka returns a first batch larger
    /// than the limit so the consumer can make progress).
    pub fn read(&self, offset: i64, max_bytes: usize) -> Bytes {
        let start = self.batches.partition_point(|(_, next, _)| *next <= offset);
        let mut out = BytesMut::new();
        for (_, _, b) in &self.batches[start..] {
            if !out.is_empty() && out.len() + b.len() > max_bytes {
                break;
            }
            out.extend_from_slice(b);
        }
        out.freeze()
    }
}

/// Splits `records` into v2 batches; refuses anything else.
fn split_batches(mut records: &[u8]) -> Result<Vec<&[u8]>, String> {
    let mut out = Vec::new();
    while !records.is_empty() {
        // baseOffset(8) batchLength(4) partitionLeaderEpoch(4) magic(1) crc(4)
        // attributes(2) lastOffsetDelta(4): 27 bytes before the rest.
        if records.len() < 61 {
            return Err(format!(
                "a record batch of {} bytes is too short",
                records.len()
            ));
        }
        let length = i32::from_be_bytes([records[8], records[9], records[10], records[11]]);
        let total = usize::try_from(length)
            .ok()
            .and_then(|l| l.checked_add(12))
            .filter(|t| *t <= records.len() && *t >= 61)
            .ok_or_else(|| format!("bad record batch length {length}"))?;
        if records[16] != 2 {
            return Err(format!(
                "record batch magic {} (only v2 batches are stored)",
                records[16]
            ));
        }
        let last_delta = i32::from_be_bytes([records[23], records[24], records[25], records[26]]);
        if last_delta < 0 {
            return Err(format!("bad lastOffsetDelta {last_delta}"));
        }
        out.push(&records[..total]);
        records = &records[total..];
    }
    Ok(out)
}

/// Every topic: name → its partitions' logs.
#[derive(Clone, Debug, Default)]
pub struct Topics {
    topics: BTreeMap<String, Vec<PartitionLog>>,
}

impl Topics {
    /// Creates `name` with `partitions` partitions; an existing topic keeps
    /// its logs and grows if asked for more. True when something changed.
    pub fn ensure(&mut self, name: &str, partitions: u32) -> bool {
        let logs = self.topics.entry(name.to_string()).or_default();
        let want = partitions.max(1) as usize;
        if logs.len() >= want {
            return false;
        }
        logs.resize_with(want, PartitionLog::default);
        true
    }

    pub fn get(&self, name: &str) -> Option<&[PartitionLog]> {
        self.topics.get(name).map(Vec::as_slice)
    }

    pub fn partition_mut(&mut self, name: &str, partition: i32) -> Option<&mut PartitionLog> {
        let p = usize::try_from(partition).ok()?;
        self.topics.get_mut(name)?.get_mut(p)
    }

    pub fn partition(&self, name: &str, partition: i32) -> Option<&PartitionLog> {
        let p = usize::try_from(partition).ok()?;
        self.topics.get(name)?.get(p)
    }

    /// (name, partition count), by name.
    pub fn list(&self) -> Vec<(String, u32)> {
        self.topics
            .iter()
            .map(|(n, p)| (n.clone(), p.len() as u32))
            .collect()
    }

    /// `"t-0"` → log end offset, for partitions with records.
    pub fn log_ends(&self) -> BTreeMap<String, i64> {
        let mut out = BTreeMap::new();
        for (name, logs) in &self.topics {
            for (i, log) in logs.iter().enumerate() {
                if log.end > 0 {
                    out.insert(format!("{name}-{i}"), log.end);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn batch(last_delta: i32, extra: usize) -> Vec<u8> {
        let mut b = vec![0u8; 61 + extra];
        let len = (b.len() - 12) as i32;
        b[8..12].copy_from_slice(&len.to_be_bytes());
        b[16] = 2;
        b[23..27].copy_from_slice(&last_delta.to_be_bytes());
        b
    }

    #[test]
    fn append_rewrites_base_offsets_and_read_starts_at_the_holding_batch() {
        let mut log = PartitionLog::default();
        let mut two = batch(2, 0);
        two.extend(batch(0, 3));
        assert_eq!(log.append(&two), Ok(0));
        assert_eq!(log.end(), 4);
        assert_eq!(log.append(&batch(1, 0)), Ok(4));
        assert_eq!(log.end(), 6);
        let read = log.read(3, 1 << 20);
        assert_eq!(i64::from_be_bytes(read[..8].try_into().unwrap()), 3);
        assert_eq!(read.len(), 64 + 61);
        assert!(log.read(6, 100).is_empty());
        // Always one batch, even above max_bytes.
        assert_eq!(log.read(0, 1).len(), 61);
    }

    #[test]
    fn garbage_is_refused_and_the_log_is_untouched() {
        let mut log = PartitionLog::default();
        assert!(log.append(&[1, 2, 3]).is_err());
        let mut bad = batch(0, 0);
        bad[16] = 1;
        assert!(log.append(&bad).is_err());
        let mut long = batch(0, 0);
        long[8..12].copy_from_slice(&1000i32.to_be_bytes());
        assert!(log.append(&long).is_err());
        assert_eq!(log.end(), 0);
    }
}
