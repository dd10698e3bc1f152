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

/// Length of a consumer-protocol member id (KIP-1082: a random uuid the
/// client makes, in 22 base64 characters).
const CLIENT_ID_LEN: usize = 22;

/// A member id shortened the way the UI shows it: `A-8c1e2f…` becomes
/// `A-8c1e` (the prefix and the first four hex digits of the uuid), and a
/// consumer-protocol client's `v5SvOC+QTrmAfUG3d/V4hw` becomes `v5SvOC+Q…`.
/// Other ids are returned whole.
pub fn short_member_id(id: &str) -> String {
    let n = id.len();
    if is_client_made(id) {
        return format!("{}…", &id[..8]);
    }
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

/// Whether `id` looks like a uuid a consumer-protocol client made: 22
/// base64 characters with upper and lower case letters and a digit.
fn is_client_made(id: &str) -> bool {
    let b = id.as_bytes();
    let base64 = |c: &u8| c.is_ascii_alphanumeric() || b"+/-_".contains(c);
    b.len() == CLIENT_ID_LEN
        && b.iter().all(base64)
        && b.iter().any(u8::is_ascii_uppercase)
        && b.iter().any(u8::is_ascii_lowercase)
        && b.iter().any(u8::is_ascii_digit)
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
    fn a_consumer_protocol_clients_id_is_cut_to_eight_characters() {
        assert_eq!(short_member_id("v5SvOC+QTrmAfUG3d/V4hw"), "v5SvOC+Q…");
        assert_eq!(short_member_id("MBxLHq-tTH6o8SrT1vzSLQ"), "MBxLHq-t…");
        // Not one: a name of that length, or ids without all three kinds.
        assert_eq!(
            short_member_id("consumer-group-members"),
            "consumer-group-members"
        );
        assert_eq!(
            short_member_id("AAAAAAAAAAAAAAAAAAAAAA"),
            "AAAAAAAAAAAAAAAAAAAAAA"
        );
        assert_eq!(short_member_id("m1"), "m1");
    }

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
