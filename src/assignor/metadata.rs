//! The bytes a simulated consumer puts in `JoinGroupRequest.protocols[].metadata`.
//!
//! This is GroupScope's own encoding, **not** Kafka's `ConsumerProtocol`
//! (`ConsumerProtocolSubscription`, a versioned binary struct with owned
//! partitions, user data, generation and rack). The coordinator treats the
//! metadata as opaque bytes and only compares them for equality, so a simple,
//! readable encoding is enough and shows up legibly in traces: the topic names,
//! sorted and de-duplicated, joined with commas, as UTF-8. Kafka topic names are
//! limited to `[a-zA-Z0-9._-]`, so a comma cannot occur inside one.

/// Encodes a subscription for JoinGroup metadata: the topics sorted,
/// de-duplicated and comma-joined, so equal subscriptions give equal bytes
/// whatever order the client listed them in.
pub fn encode_subscription(topics: &[String]) -> Vec<u8> {
    let mut sorted: Vec<&str> = topics.iter().map(String::as_str).collect();
    crate::ordered::sort(&mut sorted);
    sorted.dedup();
    sorted.join(",").into_bytes()
}

/// Decodes metadata written by [`encode_subscription`] back into topic
/// names. Empty input (or empty segments) give no topics; bytes that are not
/// UTF-8 are replaced lossily rather than rejected, because the leader must
/// still produce an assignment for every member.
pub fn decode_subscription(bytes: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(bytes)
        .split(',')
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn subscription_encodes_as_sorted_comma_separated_topics() {
        let bytes = encode_subscription(&strings(&["orders", "clicks", "orders"]));
        assert_eq!(bytes, b"clicks,orders".to_vec());
    }

    #[test]
    fn subscription_decodes_back_to_the_sorted_topics() {
        let topics = strings(&["t-2", "a.b_c", "t"]);
        assert_eq!(
            decode_subscription(&encode_subscription(&topics)),
            strings(&["a.b_c", "t", "t-2"])
        );
    }

    #[test]
    fn empty_subscription_round_trips_to_no_topics() {
        assert_eq!(encode_subscription(&[]), Vec::<u8>::new());
        assert!(decode_subscription(b"").is_empty());
        assert_eq!(decode_subscription(b",t,,"), strings(&["t"]));
    }
}
