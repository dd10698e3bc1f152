//! How sentences write quantities: a duration in seconds, a member id
//! shortened, partitions as runs. The narrator's own, and the views'
//! (`ui::model::format` re-exports them), so a caption and a panel write a
//! figure alike.

use crate::ids::TopicPartition;

/// A duration in ms as seconds with one decimal (`8.2 s`), for captions
/// and tooltips.
pub fn format_seconds(ms: u64) -> String {
    format!("{}.{} s", ms / 1000, (ms % 1000) / 100)
}

/// Length of the uuid Kafka appends to a member id (`<prefix>-<uuid>`).
const UUID_LEN: usize = 36;

/// A member id shortened the way the UI shows it: `A-8c1e2f…` becomes
/// `A-8c1e` (the prefix and the first four hex digits of the uuid). Ids
/// that do not end in a uuid are returned whole.
pub fn short_member_id(id: &str) -> String {
    let n = id.len();
    if n > UUID_LEN + 1
        && id.is_char_boundary(n - UUID_LEN - 1)
        && id.as_bytes()[n - UUID_LEN - 1] == b'-'
        && id[n - UUID_LEN..]
            .bytes()
            .all(|b| b.is_ascii_hexdigit() || b == b'-')
    {
        format!(
            "{}{}",
            &id[..n - UUID_LEN],
            &id[n - UUID_LEN..n - UUID_LEN + 4]
        )
    } else {
        id.to_string()
    }
}

/// Partitions written compactly, topic by topic, with runs as ranges:
/// `t-0..2, t-5, u-1`. Empty when there are none.
pub fn partition_ranges(owned: &[TopicPartition]) -> String {
    let mut sorted: Vec<&TopicPartition> = owned.iter().collect();
    crate::ordered::sort_by(&mut sorted, |a, b| {
        (&a.topic, a.partition).cmp(&(&b.topic, b.partition))
    });
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let start = sorted[i];
        let mut end = start.partition;
        let mut j = i + 1;
        while j < sorted.len() && sorted[j].topic == start.topic && sorted[j].partition == end + 1 {
            end += 1;
            j += 1;
        }
        parts.push(if end == start.partition {
            format!("{}-{}", start.topic, end)
        } else {
            format!("{}-{}..{}", start.topic, start.partition, end)
        });
        i = j;
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn member_ids_are_shortened_to_the_prefix_and_four_uuid_digits() {
        let id = "A-8c1e2f3a-0b1c-4d2e-8f90-123456789abc";
        assert_eq!(short_member_id(id), "A-8c1e");
        let copy = "A-copy-8c1e2f3a-0b1c-4d2e-8f90-123456789abc";
        assert_eq!(short_member_id(copy), "A-copy-8c1e");
        assert_eq!(short_member_id(""), "");
        assert_eq!(short_member_id("not-a-uuid"), "not-a-uuid");
    }

    #[test]
    fn owned_partitions_are_written_as_runs_per_topic() {
        let tp = |t: &str, p| TopicPartition::new(t, p);
        let owned = [tp("t", 2), tp("u", 1), tp("t", 0), tp("t", 1), tp("t", 5)];
        assert_eq!(partition_ranges(&owned), "t-0..2, t-5, u-1");
        assert_eq!(partition_ranges(&[]), "");
    }

    #[test]
    fn durations_are_seconds_with_one_decimal() {
        assert_eq!(format_seconds(8_250), "8.2 s");
        assert_eq!(format_seconds(30_000), "30.0 s");
    }
}
